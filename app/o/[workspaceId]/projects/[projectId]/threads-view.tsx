"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatLatency, formatTokens, relativeTime } from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import styles from "./threads.module.css";

/** One thread as a chat: each turn's question and answer, in order, each opening its trace. */
function Transcript({ workspaceId, projectId, threadId }: { workspaceId: string; projectId: string; threadId: string }) {
  const trpc = useTRPC();
  const turns = useQuery(trpc.runs.threadTurns.queryOptions({ workspaceId, projectId, threadId }));
  if (turns.isPending) return <LoadingState label="Loading the conversation…" />;
  if (turns.isError) return <ErrorState error={turns.error} title="Could not load this thread" />;
  return (
    <ol className={styles.transcript} data-testid="thread-transcript">
      {turns.data.map((turn) => (
        <li key={turn.run_id} className={styles.turn}>
          <div className={styles.turnMeta}>
            <span className="faint">
              {relativeTime(turn.start_time)} · {formatLatency(turn.latency)}
            </span>
            <Link href={`/o/${workspaceId}/projects/${projectId}/traces/${turn.trace_id}`} className="faint">
              {turn.name} →
            </Link>
          </div>
          {turn.user ? <div className={`${styles.bubble} ${styles.user}`}>{turn.user}</div> : null}
          {turn.error ? (
            <div className={`${styles.bubble} ${styles.failed}`}>{turn.error}</div>
          ) : turn.assistant ? (
            <div className={`${styles.bubble} ${styles.assistant}`}>{turn.assistant}</div>
          ) : (
            <div className={`${styles.bubble} ${styles.assistant} faint`}>No answer yet</div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The project's conversations: runs grouped by thread id, most recently active first. */
export function ThreadsView({
  workspaceId,
  projectId,
  threadId,
  onOpen,
}: {
  workspaceId: string;
  projectId: string;
  threadId: string | null;
  onOpen: (threadId: string | null) => void;
}) {
  const trpc = useTRPC();
  const threads = useQuery(trpc.runs.threads.queryOptions({ workspaceId, projectId }));
  const list = threads.data?.groups ?? [];
  return (
    <div className={`${styles.layout} ${threadId ? styles.withTranscript : ""}`}>
      <div className={`card ${styles.list}`}>
        {threads.isPending ? (
          <LoadingState label="Loading threads…" />
        ) : threads.isError ? (
          <ErrorState error={threads.error} title="Could not load threads" />
        ) : list.length === 0 ? (
          <EmptyState title="No threads yet">
            Runs join a thread when their metadata names one: <code>thread_id</code>, <code>session_id</code> or{" "}
            <code>conversation_id</code>.
          </EmptyState>
        ) : (
          <table className="table" data-testid="threads-table">
            <thead>
              <tr>
                <th>Thread</th>
                <th>First message</th>
                <th className="num">Turns</th>
                <th>Last active</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr
                  key={t.thread_id}
                  aria-selected={t.thread_id === threadId}
                  className={t.thread_id === threadId ? styles.selected : ""}
                  onClick={() => onOpen(t.thread_id)}
                  data-testid="thread-row"
                >
                  <td className="mono truncate" title={t.thread_id}>
                    {t.thread_id}
                  </td>
                  <td className={`truncate ${styles.first}`} title={t.first_inputs}>
                    {t.first_inputs || <span className="faint">–</span>}
                  </td>
                  <td className="num">{t.count}</td>
                  <td className="muted">{relativeTime(t.max_start_time)}</td>
                  <td className="num">{formatTokens(t.total_tokens)}</td>
                  <td className="num">{formatCost(t.total_cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {threadId ? (
        <aside className={styles.drawer} aria-label="Thread">
          <div className={styles.drawerHeader}>
            <span className="muted">Thread</span>
            <span className="mono truncate">{threadId}</span>
            <span className="grow" />
            <button type="button" className="btn btn-sm btn-ghost" aria-label="Close" onClick={() => onOpen(null)}>
              ✕
            </button>
          </div>
          <Transcript workspaceId={workspaceId} projectId={projectId} threadId={threadId} />
        </aside>
      ) : null}
    </div>
  );
}
