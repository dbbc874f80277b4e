"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatCount, formatExactTime, formatLatency, formatPercent, formatTokens, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { GetStarted } from "./get-started";
import { ActivitySparkline } from "./sparkline";

export default function ProjectsPage() {
  const { workspaceId } = useParams<{ workspaceId: string }>();
  const router = useRouter();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const nameContains = useDeferredValue(search.trim());
  const query = useQuery({
    ...trpc.projects.list.queryOptions({ workspaceId, nameContains: nameContains || undefined }),
    placeholderData: (prev) => prev,
    // While the workspace has no project, look for the first trace every few seconds.
    refetchInterval: (q) => (q.state.data?.length === 0 && !nameContains ? 3000 : false),
  });

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Projects</h1>
          <div className="subtitle">Every trace your applications send lands in a project.</div>
        </div>
        <input
          className="input"
          style={{ width: 240 }}
          placeholder="Search projects…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label="Search projects"
        />
      </div>
      <div className="card" style={{ overflow: "auto" }}>
        {query.isPending ? (
          <LoadingState label="Loading projects…" />
        ) : query.isError ? (
          <ErrorState error={query.error} title="Could not load projects" retry={() => query.refetch()} />
        ) : query.data.length === 0 ? (
          nameContains ? (
            <EmptyState title="No project matches">Nothing is named like “{nameContains}”.</EmptyState>
          ) : (
            <GetStarted workspaceId={workspaceId} />
          )
        ) : (
          <table className="table" data-testid="projects-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Traces · 14 days</th>
                <th className="num">Traces</th>
                <th className="num">Error rate</th>
                <th className="num">P50 latency</th>
                <th className="num">P99 latency</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
                <th className="num">Last run</th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((p) => {
                const href = `/o/${workspaceId}/projects/${p.id}`;
                return (
                  <tr
                    key={p.id}
                    className="row-link"
                    onClick={(e) => {
                      if (!(e.target as HTMLElement).closest("a")) router.push(href);
                    }}
                  >
                    <td style={{ maxWidth: 320 }}>
                      <Link href={href} className="truncate" style={{ display: "block", fontWeight: 500, color: "var(--text)" }}>
                        {p.name}
                      </Link>
                      {p.description ? (
                        <div className="muted truncate" style={{ fontSize: 12 }}>
                          {p.description}
                        </div>
                      ) : null}
                    </td>
                    <td>
                      <ActivitySparkline workspaceId={workspaceId} projectId={p.id} />
                    </td>
                    <td className="num">{formatCount(p.run_count ?? 0)}</td>
                    <td className="num">
                      <span className={p.error_rate ? "err-text" : undefined}>{formatPercent(p.error_rate)}</span>
                    </td>
                    <td className="num">{formatLatency(p.latency_p50)}</td>
                    <td className="num muted">{formatLatency(p.latency_p99)}</td>
                    <td className="num">{formatTokens(p.total_tokens)}</td>
                    <td className="num">{formatCost(p.total_cost)}</td>
                    <td className="num muted" title={formatExactTime(p.last_run_start_time)}>
                      {relativeTime(p.last_run_start_time)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
