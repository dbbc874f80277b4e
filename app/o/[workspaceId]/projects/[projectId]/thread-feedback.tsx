"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { relativeTime } from "../../_components/format";
import styles from "./threads.module.css";

/** A thumb, up or (turned over) down: drawn, so it shows without an emoji font. */
function Thumb({ down = false }: { down?: boolean }) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinejoin="round"
      aria-hidden
      style={down ? { transform: "rotate(180deg)" } : undefined}
    >
      <path d="M2 7h2.5v7H2zM4.5 7.5 7.5 2c1.2 0 1.8.8 1.6 2L8.6 6.5H13a1.3 1.3 0 0 1 1.3 1.5l-.9 4.8A1.5 1.5 0 0 1 11.9 14H4.5" />
    </svg>
  );
}

/**
 * Feedback on the whole conversation (LangSmith's thread feedback): a key (the workspace's
 * feedback configs are offered), a score, a comment. Kept on the project with the thread's id,
 * signed with the reviewer; the thread list's feedback counts it.
 */
export function ThreadFeedback({ workspaceId, projectId, threadId }: { workspaceId: string; projectId: string; threadId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = trpc.feedback.forThread.queryOptions({ workspaceId, projectId, threadId });
  const list = useQuery(options);
  const configs = useQuery(trpc.feedback.configs.queryOptions({ workspaceId }));
  const [key, setKey] = useState("thread_quality");
  const [score, setScore] = useState("");
  const [comment, setComment] = useState("");
  const create = useMutation(
    trpc.feedback.createOnThread.mutationOptions({
      onSuccess: () => {
        setScore("");
        setComment("");
        void queryClient.invalidateQueries({ queryKey: options.queryKey });
        void queryClient.invalidateQueries({ queryKey: trpc.runs.threads.pathKey() });
      },
    }),
  );
  const send = (value: number | null) =>
    create.mutate({ workspaceId, projectId, threadId, key: key.trim(), score: value, comment: comment.trim() || null });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(score.trim() === "" ? null : Number(score));
  };
  const bad = score.trim() !== "" && Number.isNaN(Number(score));
  return (
    <section className={styles.threadFeedback} data-testid="thread-feedback">
      <div className={styles.sectionTitle}>Feedback on the whole thread</div>
      <form className={styles.feedbackForm} onSubmit={submit}>
        <input
          className="input"
          list="thread-feedback-keys"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-label="Feedback key"
          maxLength={256}
        />
        <datalist id="thread-feedback-keys">
          {configs.data?.map((c) => (
            <option key={c.id} value={c.feedback_key} />
          ))}
        </datalist>
        <button type="button" className="btn btn-sm" aria-label="Good thread" disabled={!key.trim()} onClick={() => send(1)}>
          <Thumb />
        </button>
        <button type="button" className="btn btn-sm" aria-label="Bad thread" disabled={!key.trim()} onClick={() => send(0)}>
          <Thumb down />
        </button>
        <input
          className={`input ${bad ? "input-error" : ""}`}
          style={{ width: 72 }}
          inputMode="decimal"
          placeholder="score"
          value={score}
          onChange={(e) => setScore(e.target.value)}
          aria-label="Score"
        />
        <input
          className="input grow"
          placeholder="comment"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          aria-label="Comment"
        />
        <button type="submit" className="btn btn-sm btn-primary" disabled={!key.trim() || bad || create.isPending}>
          Add
        </button>
      </form>
      {create.error ? (
        <div className="err-text" role="alert">
          {create.error.message}
        </div>
      ) : null}
      {list.data?.length ? (
        <ul className={styles.feedbackList}>
          {list.data.map((f) => (
            <li key={f.id} data-testid="thread-feedback-item">
              <span className="badge">
                {f.key} <b>{f.score ?? String(f.value ?? "–")}</b>
              </span>
              {f.comment ? <span className="truncate">{f.comment}</span> : null}
              <span className="grow" />
              <span className="faint">
                {f.author?.name ?? "API"} · {relativeTime(f.created_at)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
