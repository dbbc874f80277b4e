"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import type { RouterOutputs } from "@/app/trpc-types";
import { Markdown } from "../../../_components/conversation/markdown";
import styles from "../../queues.module.css";

type Queue = RouterOutputs["queues"]["get"];
type Item = Queue["rubric_items"][number];
type Review = NonNullable<RouterOutputs["queues"]["review"]>;
export interface Answer {
  key: string;
  score?: number | null;
  value?: string | null;
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** One rubric question: category buttons (number keys pick them), a score, or a short answer. */
function Question({
  item,
  answer,
  active,
  onAnswer,
  onFocus,
}: {
  item: Item;
  answer?: Answer;
  active: boolean;
  onAnswer: (a: Answer) => void;
  onFocus: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const config = item.feedback_config?.feedback_config;
  useEffect(() => {
    if (active && config?.type !== "categorical") input.current?.focus();
  }, [active, config?.type]);
  const key = item.feedback_key;
  return (
    <div className={`${styles.question} ${active ? styles.active : ""}`} data-testid={`question-${key}`} onClick={onFocus}>
      <div className="row">
        <b>{key}</b>
        {item.is_required && <span className="faint">required</span>}
      </div>
      {item.description && <div className="muted">{item.description}</div>}
      {config?.type === "categorical" ? (
        <div className={styles.choices} role="group" aria-label={key}>
          {(config.categories ?? []).map((c, i) => (
            <button
              key={String(c.value)}
              type="button"
              className={`btn btn-sm ${styles.choice}`}
              aria-pressed={answer?.score === Number(c.value)}
              onClick={() => onAnswer({ key, score: Number(c.value), value: c.label ?? null })}
            >
              {i < 9 && <span className="kbd">{i + 1}</span>} {c.label ?? String(c.value)}
            </button>
          ))}
        </div>
      ) : config?.type === "continuous" ? (
        <input
          ref={input}
          className="input"
          type="number"
          step="any"
          min={config.min ?? undefined}
          max={config.max ?? undefined}
          placeholder={`${config.min ?? ""} – ${config.max ?? ""}`}
          value={answer?.score ?? ""}
          onFocus={onFocus}
          onChange={(e) => onAnswer({ key, score: e.target.value === "" ? null : Number(e.target.value) })}
          aria-label={key}
        />
      ) : (
        <input
          ref={input}
          className="input"
          value={answer?.value ?? ""}
          onFocus={onFocus}
          onChange={(e) => onAnswer({ key, value: e.target.value })}
          aria-label={key}
        />
      )}
    </div>
  );
}

/**
 * The rubric for one run, keyboard first: number keys pick the active question's category (then
 * the next question is active), ↑/↓ move between questions, Enter submits, ←/→ previous and next
 * run, `s` skips, `d` adds the run to the queue's dataset.
 */
export function RubricForm({
  queue,
  review,
  busy,
  error,
  onSubmit,
  onSkip,
  onPrevious,
  onNext,
  onDataset,
}: {
  queue: Queue;
  review: Review;
  busy: boolean;
  error: string | null;
  onSubmit: (answers: Answer[], comment: string) => void;
  onSkip: () => void;
  onPrevious: () => void;
  onNext: () => void;
  onDataset: () => void;
}) {
  const items = queue.rubric_items;
  const [answers, setAnswers] = useState<Map<string, Answer>>(
    () =>
      new Map(
        review.my_answers
          .filter((a) => a.key !== "note")
          .map((a) => [a.key, { key: a.key, score: a.score, value: typeof a.value === "string" ? a.value : null }]),
      ),
  );
  const [comment, setComment] = useState(review.my_answers.find((a) => a.key === "note")?.comment ?? "");
  const [active, setActive] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const answer = (a: Answer) => setAnswers(new Map(answers).set(a.key, a));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey) {
        if (e.key === "Enter" && e.target instanceof HTMLTextAreaElement) (e.target.form ?? form.current)?.requestSubmit();
        return;
      }
      if (isTyping(e.target)) {
        if (e.key === "Escape") (e.target as HTMLElement).blur();
        return;
      }
      const item = items[active];
      const config = item?.feedback_config?.feedback_config;
      if (/^[1-9]$/.test(e.key) && config?.type === "categorical") {
        const category = config.categories?.[Number(e.key) - 1];
        if (!category) return;
        e.preventDefault();
        answer({ key: item.feedback_key, score: Number(category.value), value: category.label ?? null });
        setActive(Math.min(active + 1, items.length - 1));
      } else if (e.key === "ArrowDown") {
        e.preventDefault();
        setActive(Math.min(active + 1, items.length - 1));
      } else if (e.key === "ArrowUp") {
        e.preventDefault();
        setActive(Math.max(active - 1, 0));
      } else if (e.key === "Enter") {
        e.preventDefault();
        form.current?.requestSubmit();
      } else if (e.key === "ArrowLeft") onPrevious();
      else if (e.key === "ArrowRight") onNext();
      else if (e.key === "s") onSkip();
      else if (e.key === "d") {
        e.preventDefault();
        onDataset();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit([...answers.values()], comment);
  };
  return (
    <form ref={form} className={`card ${styles.rubric}`} onSubmit={submit} aria-label="Rubric">
      {queue.rubric_instructions && (
        <div className={styles.instructions} data-testid="rubric-instructions">
          <Markdown text={queue.rubric_instructions} />
        </div>
      )}
      {review.my_status && (
        <div className="badge badge-ok" role="status">
          {review.my_status === "completed" ? "You reviewed this run: submitting again replaces your answers." : "You skipped this run."}
        </div>
      )}
      {items.map((item, i) => (
        <Question
          key={item.feedback_key}
          item={item}
          answer={answers.get(item.feedback_key)}
          active={i === active}
          onAnswer={answer}
          onFocus={() => setActive(i)}
        />
      ))}
      <label className="col">
        <span className="faint">Note (optional)</span>
        <textarea className="textarea" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} aria-label="Note" />
      </label>
      {error && (
        <span className="err-text" role="alert">
          {error}
        </span>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Submit <span className="kbd">Enter</span>
        </button>
        <button type="button" className="btn" onClick={onSkip} disabled={busy}>
          Skip <span className="kbd">s</span>
        </button>
      </div>
      {review.others.length > 0 && (
        <div className={styles.others} data-testid="other-reviews">
          <b>Other reviewers</b>
          {review.others.map((o, i) => (
            <span key={i}>
              {o.author}: {o.key} {o.score ?? (typeof o.value === "string" ? o.value : "")}
              {o.comment ? ` — ${o.comment}` : ""}
            </span>
          ))}
        </div>
      )}
      <div className={styles.keys}>
        <span>
          <span className="kbd">1</span>–<span className="kbd">9</span> pick
        </span>
        <span>
          <span className="kbd">↑</span>
          <span className="kbd">↓</span> question
        </span>
        <span>
          <span className="kbd">←</span>
          <span className="kbd">→</span> run
        </span>
        <span>
          <span className="kbd">d</span> add to dataset
        </span>
      </div>
    </form>
  );
}
