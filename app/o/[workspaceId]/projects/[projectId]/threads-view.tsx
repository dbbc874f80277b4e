"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatLatency, formatTokens, relativeTime } from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { ThreadFeedback } from "./thread-feedback";
import styles from "./threads.module.css";

type FeedbackStats = Record<string, { n: number; avg: number | null; value?: string | null }>;

/** Feedback chips: the mean score per key (or the value most given), green from 0.5 up. */
function FeedbackChips({ stats, max = 3 }: { stats: FeedbackStats | null | undefined; max?: number }) {
  const entries = Object.entries(stats ?? {});
  if (entries.length === 0) return null;
  return (
    <>
      {entries.slice(0, max).map(([key, s]) => {
        const scored = s.avg !== null && s.avg !== undefined;
        const shown = scored ? String(Math.round(s.avg! * 100) / 100) : (s.value ?? String(s.n));
        return (
          <span
            key={key}
            className={`badge ${scored ? (s.avg! >= 0.5 ? "badge-ok" : "badge-error") : ""}`}
            title={`${key}: ${s.n} feedback`}
          >
            {key} <b>{shown}</b>
          </span>
        );
      })}
      {entries.length > max ? <span className="faint">+{entries.length - max}</span> : null}
    </>
  );
}

/** One thread as a chat: each turn's question and answer, with its numbers, each opening its trace. */
function Transcript({ workspaceId, projectId, threadId }: { workspaceId: string; projectId: string; threadId: string }) {
  const trpc = useTRPC();
  const turns = useQuery(trpc.runs.threadTurns.queryOptions({ workspaceId, projectId, threadId }));
  if (turns.isPending) return <LoadingState label="Loading the conversation…" />;
  if (turns.isError) return <ErrorState error={turns.error} title="Could not load this thread" />;
  const list = turns.data;
  const sum = (pick: (t: (typeof list)[number]) => number | null) => list.reduce((acc, t) => acc + (pick(t) ?? 0), 0);
  const failedTurns = list.filter((t) => t.error_runs > 0).length;
  return (
    <div className={styles.thread}>
      <div className={styles.threadTotals} data-testid="thread-totals">
        <span>
          <b>{list.length}</b> turns
        </span>
        <span>
          <b>{formatTokens(sum((t) => t.total_tokens))}</b> tokens
        </span>
        <span>
          <b>{formatCost(sum((t) => t.total_cost))}</b>
        </span>
        <span>
          <b>{formatLatency(sum((t) => t.latency))}</b> in all
        </span>
        <span className={failedTurns ? "err-text" : "faint"}>
          {failedTurns} {failedTurns === 1 ? "turn" : "turns"} with errors
        </span>
      </div>
      <ol className={styles.transcript} data-testid="thread-transcript">
        {list.map((turn, i) => (
          <li key={turn.run_id} className={styles.turn} data-testid="thread-turn">
            <div className={styles.turnMeta}>
              <span className="faint">
                Turn {i + 1} · {relativeTime(turn.start_time)}
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
            <div className={styles.turnStats} data-testid="turn-stats">
              <span title="Latency">{formatLatency(turn.latency)}</span>
              {turn.total_tokens !== null ? <span title="Tokens of the turn's trace">{formatTokens(turn.total_tokens)} tok</span> : null}
              {turn.total_cost !== null ? <span title="Cost of the turn's trace">{formatCost(turn.total_cost)}</span> : null}
              {turn.error_runs > 0 ? (
                <span className="badge badge-error" title="Runs of this turn's trace that failed">
                  {turn.error_runs} {turn.error_runs === 1 ? "error" : "errors"}
                </span>
              ) : null}
              <FeedbackChips stats={turn.feedback} />
            </div>
          </li>
        ))}
      </ol>
      <ThreadFeedback workspaceId={workspaceId} projectId={projectId} threadId={threadId} />
    </div>
  );
}

/** The project's conversations: runs grouped by thread id, most recently active first. */
export function ThreadsView({
  workspaceId,
  projectId,
  threadId,
  onOpen,
  filter,
  search,
  startTime,
  endTime,
}: {
  workspaceId: string;
  projectId: string;
  threadId: string | null;
  onOpen: (threadId: string | null) => void;
  filter?: string;
  search?: string;
  startTime?: string;
  endTime?: string;
}) {
  const trpc = useTRPC();
  const threads = useQuery({
    ...trpc.runs.threads.queryOptions({
      workspaceId,
      projectId,
      filter: filter || undefined,
      search: search || undefined,
      startTime,
      endTime,
    }),
    placeholderData: (prev) => prev,
  });
  const list = threads.data?.groups ?? [];
  const narrowed = !!(filter || search || startTime || endTime);
  return (
    <div className={`${styles.layout} ${threadId ? styles.withTranscript : ""}`}>
      <div className={`card ${styles.list}`}>
        {threads.isPending ? (
          <LoadingState label="Loading threads…" />
        ) : threads.isError ? (
          <ErrorState error={threads.error} title="Could not load threads" />
        ) : list.length === 0 ? (
          narrowed ? (
            <EmptyState title="No threads match">Try a wider time range, search or filter.</EmptyState>
          ) : (
            <EmptyState title="No threads yet">
              Runs join a thread when their metadata names one: <code>thread_id</code>, <code>session_id</code> or{" "}
              <code>conversation_id</code>.
            </EmptyState>
          )
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
                <th>Feedback</th>
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
                  <td className={styles.pills}>
                    <FeedbackChips stats={t.feedback_stats} max={2} />
                  </td>
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
