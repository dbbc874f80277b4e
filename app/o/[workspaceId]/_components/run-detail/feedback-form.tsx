"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { ReviewedFeedback } from "@/server/review/feedback";
import { scoreProblem, ScoreInput, type ScoreConfig } from "./feedback-score";
import styles from "./run-detail.module.css";

/** A config in words, for a key button's tooltip. */
function describeConfig(config: ScoreConfig | undefined): string {
  if (config?.type === "categorical") return `One of: ${(config.categories ?? []).map((c) => c.label || String(c.value)).join(", ")}`;
  if (config?.type === "continuous") return `A score from ${config.min ?? "–"} to ${config.max ?? "–"}`;
  return "Free text";
}

/** Free text that is valid JSON is stored as JSON (numbers, objects); anything else as the string. */
function jsonOrText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/** A feedback value as text: a string as it is, anything else as JSON. */
export const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The form's fields; an existing review fills them for editing. */
interface Draft {
  key: string;
  score: string;
  value: string;
  comment: string;
  correction: string;
}
const EMPTY: Draft = { key: "", score: "", value: "", comment: "", correction: "" };
const draftOf = (f: ReviewedFeedback): Draft => ({
  key: f.key,
  score: f.score === null ? "" : String(f.score),
  value: f.value === null || f.value === undefined ? "" : show(f.value),
  comment: f.comment ?? "",
  correction: f.correction === null || f.correction === undefined ? "" : show(f.correction),
});

/** Adds feedback to a run, or edits one of the user's own. */
export function FeedbackForm({
  workspaceId,
  runId,
  editing,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  runId: string;
  editing: ReviewedFeedback | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const configs = useQuery(trpc.feedback.configs.queryOptions({ workspaceId }));
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : EMPTY);
  const [other, setOther] = useState(false);
  const keyed = configs.data ?? [];
  const choosing = keyed.length > 0 && !editing && !other && !draft.key;
  const patch = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const done = () => {
    setDraft((d) => ({ ...EMPTY, key: d.key }));
    onSaved();
  };
  const create = useMutation(trpc.feedback.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.feedback.update.mutationOptions({ onSuccess: done }));
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const config = configs.data?.find((c) => c.feedback_key === draft.key.trim())?.feedback_config as ScoreConfig | undefined;
  const problem = scoreProblem(config, draft.score);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.key.trim() || problem) return;
    const fields = {
      workspaceId,
      score: draft.score.trim() === "" ? null : Number(draft.score),
      value: jsonOrText(draft.value),
      comment: draft.comment.trim() || null,
      correction: jsonOrText(draft.correction),
    };
    if (editing) update.mutate({ ...fields, id: editing.id });
    else create.mutate({ ...fields, runId, key: draft.key.trim() });
  };
  return (
    <form className={styles.feedbackForm} onSubmit={submit} aria-label={editing ? "Edit feedback" : "Add feedback"}>
      {keyed.length > 0 && !editing ? (
        <div className={styles.field}>
          <span>Key</span>
          <div className={styles.keyChoices} role="group" aria-label="Feedback key" data-testid="feedback-keys">
            {keyed.map((c) => (
              <button
                key={c.id}
                type="button"
                className="btn btn-sm"
                aria-pressed={!other && draft.key === c.feedback_key}
                title={describeConfig(c.feedback_config as ScoreConfig)}
                onClick={() => {
                  setOther(false);
                  patch({ key: c.feedback_key, score: "", value: "" });
                }}
              >
                {c.feedback_key}
              </button>
            ))}
            <button
              type="button"
              className="btn btn-sm"
              aria-pressed={other}
              onClick={() => {
                setOther(true);
                patch({ key: "", score: "", value: "" });
              }}
            >
              Other…
            </button>
          </div>
        </div>
      ) : null}
      {choosing ? (
        <p className="muted" style={{ margin: 0 }}>
          Pick one of the workspace&apos;s feedback keys, or Other… for a key of your own.
        </p>
      ) : (
        <>
          <div className={styles.formRow}>
            {keyed.length === 0 || other || editing ? (
              <label className={styles.field}>
                <span>{keyed.length && !editing ? "Other key" : "Key"}</span>
                <input
                  className="input"
                  name="key"
                  list="feedback-keys"
                  placeholder="correctness"
                  value={draft.key}
                  disabled={!!editing}
                  onChange={(e) => patch({ key: e.target.value, score: "", value: "" })}
                  required
                  maxLength={256}
                />
                <datalist id="feedback-keys">
                  {configs.data?.map((c) => (
                    <option key={c.id} value={c.feedback_key} />
                  ))}
                </datalist>
              </label>
            ) : null}
            {config?.type !== "freeform" ? (
              <div className={styles.field} style={{ flex: config ? 2 : 1 }}>
                <span>{config?.type === "categorical" ? "Category" : "Score"}</span>
                <ScoreInput config={config} score={draft.score} value={draft.value} onChange={patch} />
              </div>
            ) : null}
            {config?.type !== "categorical" ? (
              <label className={styles.field}>
                <span>Value</span>
                <input
                  className="input"
                  name="value"
                  placeholder="text or JSON"
                  value={draft.value}
                  onChange={(e) => patch({ value: e.target.value })}
                />
              </label>
            ) : null}
          </div>
          {problem ? (
            <div className="err-text" role="alert" data-testid="score-problem">
              {problem}
            </div>
          ) : null}
          <label className={styles.field}>
            <span>Comment</span>
            <textarea
              className="textarea"
              name="comment"
              rows={2}
              value={draft.comment}
              onChange={(e) => patch({ comment: e.target.value })}
              style={{ fontFamily: "var(--font-sans)" }}
            />
          </label>
          <label className={styles.field}>
            <span>
              Correction <span className="faint">(what the output should have been; text or JSON)</span>
            </span>
            <textarea
              className="textarea"
              name="correction"
              rows={2}
              value={draft.correction}
              onChange={(e) => patch({ correction: e.target.value })}
            />
          </label>
        </>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={saving || !draft.key.trim() || !!problem}>
          {saving ? "Saving…" : editing ? "Save changes" : "Add feedback"}
        </button>
        {editing ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        {error && (
          <span className="err-text" role="alert">
            {error.message}
          </span>
        )}
        {(create.isSuccess || update.isSuccess) && !saving && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
