"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime, shortId } from "../format";
import { ErrorState, Spinner } from "../ui";
import styles from "./run-detail.module.css";

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

function FeedbackForm({ workspaceId, runId, onSaved }: { workspaceId: string; runId: string; onSaved: () => void }) {
  const trpc = useTRPC();
  const [key, setKey] = useState("");
  const [score, setScore] = useState("");
  const [value, setValue] = useState("");
  const [comment, setComment] = useState("");
  const [correction, setCorrection] = useState("");
  const create = useMutation(trpc.feedback.create.mutationOptions({
    onSuccess: () => {
      setScore("");
      setValue("");
      setComment("");
      setCorrection("");
      onSaved();
    },
  }));
  const scoreNumber = score.trim() === "" ? null : Number(score);
  const invalidScore = scoreNumber !== null && !Number.isFinite(scoreNumber);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim() || invalidScore) return;
    create.mutate({
      workspaceId, runId, key: key.trim(), score: scoreNumber,
      value: jsonOrText(value), comment: comment.trim() || null, correction: jsonOrText(correction),
    });
  };
  return (
    <form className={styles.feedbackForm} onSubmit={submit} aria-label="Add feedback">
      <div className={styles.formRow}>
        <label className={styles.field}>
          <span>Key</span>
          <input className="input" name="key" placeholder="correctness" value={key} onChange={(e) => setKey(e.target.value)} required maxLength={256} />
        </label>
        <label className={styles.field} style={{ maxWidth: 110 }}>
          <span>Score</span>
          <input className={`input ${invalidScore ? "input-error" : ""}`} name="score" inputMode="decimal" placeholder="0–1" value={score} onChange={(e) => setScore(e.target.value)} />
        </label>
        <label className={styles.field}>
          <span>Value</span>
          <input className="input" name="value" placeholder="text or JSON" value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
      </div>
      <label className={styles.field}>
        <span>Comment</span>
        <textarea className="textarea" name="comment" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} style={{ fontFamily: "var(--font-sans)" }} />
      </label>
      <label className={styles.field}>
        <span>Correction <span className="faint">(what the output should have been; text or JSON)</span></span>
        <textarea className="textarea" name="correction" rows={2} value={correction} onChange={(e) => setCorrection(e.target.value)} />
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !key.trim() || invalidScore}>
          {create.isPending ? "Saving…" : "Add feedback"}
        </button>
        {create.error && <span className="err-text" role="alert">{create.error.message}</span>}
        {create.isSuccess && !create.isPending && <span className="muted" role="status">Saved.</span>}
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
  return (
    <div className={styles.feedback} data-testid="feedback-panel">
      <FeedbackForm workspaceId={workspaceId} runId={runId} onSaved={() => queryClient.invalidateQueries({ queryKey: options.queryKey })} />
      <h3 className={styles.sectionTitle}>Feedback on this run and its trace</h3>
      {list.isPending ? <Spinner label="Loading feedback…" />
        : list.error ? <ErrorState error={list.error} retry={() => list.refetch()} />
        : list.data.length === 0 ? <p className="muted">No feedback yet.</p>
        : (
          <ul className={styles.feedbackList}>
            {list.data.map((f) => (
              <li key={f.id} data-testid="feedback-item">
                <div className="row">
                  <strong>{f.key}</strong>
                  {f.score !== null && <span className="badge badge-accent">score {f.score}</span>}
                  {f.value !== null && f.value !== undefined && <span className="badge">{show(f.value)}</span>}
                  <span className="grow" />
                  {f.run_id !== runId && f.run_id && <span className="faint" title={f.run_id}>on run {shortId(f.run_id)}</span>}
                  <span className="faint">{(f.feedback_source as { type?: string } | null)?.type ?? "api"}</span>
                  <span className="faint" title={formatExactTime(f.created_at)}>{relativeTime(f.created_at)}</span>
                </div>
                {f.comment && <p className={styles.comment}>{f.comment}</p>}
                {f.correction !== null && f.correction !== undefined && (
                  <div className={styles.correction}><span className="faint">Correction</span> <code>{show(f.correction)}</code></div>
                )}
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}
