"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { ProgressBar } from "../_components/progress-bar";
import { QueueForm } from "./queue-form";
import styles from "./queues.module.css";

export default function QueuesPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const list = useQuery(trpc.queues.list.queryOptions({ workspaceId }));
  const open = (id: string) => router.push(`/o/${workspaceId}/queues/${id}`);
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Annotation queues</h1>
          <div className="subtitle">Runs waiting for people to review them against a rubric, one at a time.</div>
        </div>
        <div className={styles.toolbar}>
          <button type="button" className="btn btn-primary" onClick={() => setCreating(!creating)}>
            New queue
          </button>
        </div>
      </div>
      {creating && <QueueForm workspaceId={workspaceId} onDone={open} />}
      {list.isPending ? (
        <LoadingState label="Loading queues…" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No annotation queues yet">
          Create a queue with a rubric, then send runs to it from a project&apos;s runs table, a run&apos;s panel, a rule or the SDK.
        </EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="queues">
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Progress</th>
                <th className="num">For you</th>
                <th className="num">Reviewers per run</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((q) => (
                <tr key={q.id} className="row-link" onClick={() => open(q.id)}>
                  <td>
                    <Link href={`/o/${workspaceId}/queues/${q.id}`} onClick={(e) => e.stopPropagation()}>
                      {q.name}
                    </Link>
                  </td>
                  <td className="muted">{q.description}</td>
                  <td>
                    <ProgressBar done={q.completed} total={q.total_runs} />
                  </td>
                  <td className="num">
                    {q.needs_my_review > 0 ? (
                      <Link
                        className="badge badge-accent"
                        href={`/o/${workspaceId}/queues/${q.id}/review`}
                        onClick={(e) => e.stopPropagation()}
                      >
                        {q.needs_my_review} to review
                      </Link>
                    ) : (
                      <span className="faint">—</span>
                    )}
                  </td>
                  <td className="num">{q.num_reviewers_per_item}</td>
                  <td title={formatExactTime(q.created_at)}>{relativeTime(q.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
