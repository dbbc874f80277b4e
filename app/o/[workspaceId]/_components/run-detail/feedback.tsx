"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime, shortId } from "../format";
import { ErrorState, Spinner } from "../ui";
import type { ReviewedFeedback } from "@/server/review/feedback";
import { FeedbackForm, show } from "./feedback-form";
import styles from "./run-detail.module.css";

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
