"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime, shortId } from "../format";
import { ErrorState, Spinner } from "../ui";
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

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

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

function FeedbackForm({
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

/** Add feedback to this run, and see all feedback on it and on the rest of its trace. */
export function FeedbackPanel({ workspaceId, runId, traceId }: { workspaceId: string; runId: string; traceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = trpc.feedback.forRun.queryOptions({ workspaceId, runId, traceId });
  const list = useQuery(options);
  const [editing, setEditing] = useState<ReviewedFeedback | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });
  const remove = useMutation(trpc.feedback.delete.mutationOptions({ onSuccess: refresh }));
  return (
    <div className={styles.feedback} data-testid="feedback-panel">
      <FeedbackForm
        key={editing?.id ?? "new"}
        workspaceId={workspaceId}
        runId={runId}
        editing={editing}
        onSaved={() => {
          setEditing(null);
          void refresh();
        }}
        onCancel={() => setEditing(null)}
      />
      {remove.error && (
        <span className="err-text" role="alert">
          {remove.error.message}
        </span>
      )}
      <h3 className={styles.sectionTitle}>Feedback on this run and its trace</h3>
      {list.isPending ? (
        <Spinner label="Loading feedback…" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">No feedback yet.</p>
      ) : (
        <ul className={styles.feedbackList}>
          {list.data.map((f) => (
            <li key={f.id} data-testid="feedback-item">
              <div className="row">
                <strong>{f.key}</strong>
                {f.score !== null && <span className="badge badge-accent">score {f.score}</span>}
                {f.value !== null && f.value !== undefined && <span className="badge">{show(f.value)}</span>}
                <span className="grow" />
                {f.run_id !== runId && f.run_id && (
                  <span className="faint" title={f.run_id}>
                    on run {shortId(f.run_id)}
                  </span>
                )}
                <span className="faint" data-testid="feedback-author">
                  {f.author?.name ?? (f.feedback_source as { type?: string } | null)?.type ?? "api"}
                </span>
                <span className="faint" title={formatExactTime(f.created_at)}>
                  {relativeTime(f.created_at)}
                </span>
                {f.mine ? (
                  <>
                    <button type="button" className="btn btn-sm btn-ghost" onClick={() => setEditing(f)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost btn-danger"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ workspaceId, id: f.id })}
                    >
                      Delete
                    </button>
                  </>
                ) : null}
              </div>
              {f.comment && <p className={styles.comment}>{f.comment}</p>}
              {f.correction !== null && f.correction !== undefined && (
                <div className={styles.correction}>
                  <span className="faint">Correction</span> <code>{show(f.correction)}</code>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
