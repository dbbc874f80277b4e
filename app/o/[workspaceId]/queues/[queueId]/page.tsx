"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { download } from "../../_components/download";
import { formatExactTime, relativeTime } from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { ProgressBar } from "../../_components/progress-bar";
import { AssignedReviewers } from "./reviewers";
import { RunsOfItem } from "./runs-of-item";
import { QueueForm } from "../queue-form";
import styles from "../queues.module.css";

const PAGE = 50;

export default function QueuePage({ params }: { params: Promise<{ workspaceId: string; queueId: string }> }) {
  const { workspaceId, queueId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [offset, setOffset] = useState(0);
  const queue = useQuery(trpc.queues.get.queryOptions({ workspaceId, queueId }));
  const items = useQuery({ ...trpc.queues.items.queryOptions({ workspaceId, queueId, offset, limit: PAGE }), placeholderData: (p) => p });
  const remove = useMutation(
    trpc.queues.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.queues.list.pathKey() });
        router.push(`/o/${workspaceId}/queues`);
      },
    }),
  );
  const exportCsv = async () => {
    const csv = await queryClient.fetchQuery(trpc.queues.exportCsv.queryOptions({ workspaceId, queueId }));
    download(`queue-${queueId}.csv`, "text/csv", typeof csv === "string" ? csv : "");
  };
  if (queue.isPending) return <LoadingState label="Loading queue…" />;
  if (queue.error) return <ErrorState error={queue.error} retry={() => queue.refetch()} />;
  const q = queue.data;
  const p = q.progress;
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <div className="faint">
            <Link href={`/o/${workspaceId}/queues`}>Annotation queues</Link> /
          </div>
          <h1>{q.name}</h1>
          {q.description && <div className="subtitle">{q.description}</div>}
        </div>
        <div className={styles.toolbar}>
          <Link
            className={`btn ${p.needs_my_review ? "btn-primary" : ""}`}
            href={`/o/${workspaceId}/queues/${queueId}/review`}
            aria-disabled={!p.needs_my_review}
          >
            {p.needs_my_review ? `Review ${p.needs_my_review} run${p.needs_my_review === 1 ? "" : "s"}` : "Nothing left for you"}
          </Link>
          <button type="button" className="btn" onClick={() => setEditing(!editing)}>
            Edit
          </button>
          <button type="button" className="btn" onClick={() => void exportCsv()} disabled={!p.completed}>
            Export CSV
          </button>
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => confirm(`Delete the queue "${q.name}"? Feedback left from it stays.`) && remove.mutate({ workspaceId, queueId })}
          >
            Delete
          </button>
        </div>
      </div>
      {editing && <QueueForm workspaceId={workspaceId} queue={q} onDone={() => setEditing(false)} />}
      <AssignedReviewers workspaceId={workspaceId} queueId={queueId} onlyAssigned={q.reviewer_access_mode === "assigned"} />
      <div className="stat-row">
        <div className="stat card">
          <div className="stat-label">Done</div>
          <ProgressBar done={p.completed} total={p.total} />
        </div>
        <div className="stat card">
          <div className="stat-label">Waiting for you</div>
          <div className="stat-value">{p.needs_my_review}</div>
        </div>
        <div className="stat card">
          <div className="stat-label">Reviewers per run</div>
          <div className="stat-value">{q.num_reviewers_per_item}</div>
        </div>
        <div className="stat card">
          <div className="stat-label">Rubric</div>
          <div className="stat-value" style={{ fontSize: 13 }}>
            {q.rubric_items.map((i) => i.feedback_key).join(", ") || "—"}
          </div>
        </div>
      </div>
      {p.reviewers.length > 0 && (
        <div className="card" style={{ marginBottom: 16 }}>
          <table className="table" data-testid="reviewers">
            <thead>
              <tr>
                <th>Reviewer</th>
                <th className="num">Completed</th>
                <th className="num">Skipped</th>
              </tr>
            </thead>
            <tbody>
              {p.reviewers.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td className="num">{r.completed}</td>
                  <td className="num">{r.skipped}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {items.isPending ? (
        <LoadingState label="Loading runs…" />
      ) : items.error ? (
        <ErrorState error={items.error} retry={() => items.refetch()} />
      ) : items.data.length === 0 && offset === 0 ? (
        <EmptyState title="No runs in this queue yet">
          Tick runs in a project&apos;s runs table and choose “Add to queue”, or add them with the SDK.
        </EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="queue-runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>Input</th>
                <th>Output</th>
                <th>Status</th>
                <th>Completed by</th>
                <th>Added</th>
              </tr>
            </thead>
            <tbody>
              {items.data.map((item) => (
                <tr
                  key={item.id}
                  className="row-link"
                  data-testid={item.paired_run_id ? "queue-pair" : undefined}
                  onClick={() => router.push(`/o/${workspaceId}/queues/${queueId}/review?item=${item.id}`)}
                >
                  <td>
                    <RunsOfItem item={item} field="name" />
                  </td>
                  <td className={styles.preview}>{item.input_preview}</td>
                  <td className={styles.preview}>
                    <RunsOfItem item={item} field="output_preview" />
                  </td>
                  <td>{item.done ? <span className="badge badge-ok">Done</span> : <span className="badge">Pending</span>}</td>
                  <td className="muted">{item.completed_by.join(", ")}</td>
                  <td title={formatExactTime(item.added_at)}>{relativeTime(item.added_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="row" style={{ padding: 8 }}>
            <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous
            </button>
            <button type="button" className="btn btn-sm" disabled={items.data.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
              Next
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
