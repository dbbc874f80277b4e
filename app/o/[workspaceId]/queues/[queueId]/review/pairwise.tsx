"use client";

import { useEffect, useState, type FormEvent } from "react";
import type { RouterOutputs } from "@/app/trpc-types";
import { Markdown } from "../../../_components/conversation/markdown";
import { RunDetail } from "../../../_components/run-detail";
import styles from "../../queues.module.css";

type Queue = RouterOutputs["queues"]["get"];
type Review = NonNullable<RouterOutputs["queues"]["review"]>;
type Choice = "A" | "B" | "equal";
export interface PreferenceAnswer {
  key: string;
  choice: Choice;
}

const CHOICES: { choice: Choice; label: string; hotkey: string }[] = [
  { choice: "A", label: "A is better", hotkey: "a" },
  { choice: "equal", label: "Equal", hotkey: "e" },
  { choice: "B", label: "B is better", hotkey: "b" },
];

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** A pairwise item: run A and run B side by side, each whole (input, output, conversation). */
export function PairedRuns({ workspaceId, review }: { workspaceId: string; review: Review }) {
  const blind = review.my_status !== "completed";
  return (
    <div className={styles.pair} data-testid="pair">
      {[
        ["A", review.run],
        ["B", review.paired_run],
      ].map(([side, run]) =>
        run && typeof run === "object" ? (
          <section key={side as string} className={styles.side} aria-label={`Run ${side}`} data-testid={`run-${side}`}>
            {/* The run's name is RunDetail's title, with the side before it. */}
            <RunDetail
              workspaceId={workspaceId}
              runId={run.id}
              blind={blind}
              lead={<span className={styles.sideLabel}>{side as string}</span>}
            />
          </section>
        ) : (
          <section key={side as string} className={styles.side}>
            <span className="muted">Run {side as string} no longer exists.</span>
          </section>
        ),
      )}
    </div>
  );
}

/** The pairwise rubric: for each question A is better, B is better, or equal (a / b / e pick, Enter sends). */
export function PreferenceForm({
  queue,
  review,
  busy,
  error,
  onSubmit,
  onSkip,
}: {
  queue: Queue;
  review: Review;
  busy: boolean;
  error: string | null;
  onSubmit: (preferences: PreferenceAnswer[], comment: string) => void;
  onSkip: () => void;
}) {
  const questions = queue.rubric_items.length
    ? queue.rubric_items.map((i) => ({ key: i.feedback_key, description: i.description }))
    : [{ key: "preference", description: "Which run answers better?" }];
  const [chosen, setChosen] = useState(new Map(review.my_preferences.map((p) => [p.key, p.choice as Choice])));
  const [comment, setComment] = useState("");
  const [active, setActive] = useState(0);
  const pick = (key: string, choice: Choice) => {
    setChosen(new Map(chosen).set(key, choice));
    setActive(Math.min(questions.findIndex((q) => q.key === key) + 1, questions.length - 1));
  };
  const send = () =>
    onSubmit(
      [...chosen].map(([key, choice]) => ({ key, choice })),
      comment,
    );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return;
      const hit = CHOICES.find((c) => c.hotkey === e.key);
      if (hit && questions[active]) {
        e.preventDefault();
        pick(questions[active].key, hit.choice);
      } else if (e.key === "Enter") {
        e.preventDefault();
        send();
      } else if (e.key === "s") onSkip();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <form
      className={`card ${styles.rubric}`}
      aria-label="Pairwise rubric"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        send();
      }}
    >
      {queue.rubric_instructions && (
        <div className={styles.instructions} data-testid="rubric-instructions">
          <Markdown text={queue.rubric_instructions} />
        </div>
      )}
      {review.my_status && (
        <div className="badge badge-ok" role="status">
          {review.my_status === "completed" ? "You compared these runs: submitting again replaces your choices." : "You skipped this pair."}
        </div>
      )}
      {questions.map((q, i) => (
        <div
          key={q.key}
          className={`${styles.question} ${i === active ? styles.active : ""}`}
          data-testid={`question-${q.key}`}
          onClick={() => setActive(i)}
        >
          <b>{q.key}</b>
          {q.description && <div className="muted">{q.description}</div>}
          <div className={styles.choices} role="group" aria-label={q.key}>
            {CHOICES.map((c) => (
              <button
                key={c.choice}
                type="button"
                className={`btn btn-sm ${styles.choice}`}
                aria-pressed={chosen.get(q.key) === c.choice}
                onClick={() => pick(q.key, c.choice)}
              >
                <span className="kbd">{c.hotkey.toUpperCase()}</span> {c.label}
              </button>
            ))}
          </div>
        </div>
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
        <button type="submit" className="btn btn-primary" disabled={busy || chosen.size < questions.length}>
          Done <span className="kbd">Enter</span>
        </button>
        <button type="button" className="btn" onClick={onSkip} disabled={busy}>
          Skip <span className="kbd">s</span>
        </button>
      </div>
    </form>
  );
}
