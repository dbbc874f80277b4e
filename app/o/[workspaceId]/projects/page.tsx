"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatCount, formatExactTime, formatLatency, formatPercent, formatTokens, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { GetStarted } from "./get-started";
import { ActivitySparkline } from "./sparkline";

type Project = RouterOutputs["projects"]["list"][number];

/** Projects the service writes itself (LLM judges, the playground) and an unused `default`: listed apart, under the user's. */
const SYSTEM_PROJECTS = new Set(["evaluators", "playground"]);
function splitSystem(projects: Project[]): { mine: Project[]; system: Project[] } {
  const system = (p: Project) => SYSTEM_PROJECTS.has(p.name) || (p.name === "default" && !p.run_count);
  return { mine: projects.filter((p) => !system(p)), system: projects.filter(system) };
}

export default function ProjectsPage() {
  const { workspaceId } = useParams<{ workspaceId: string }>();
  const router = useRouter();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [showSystem, setShowSystem] = useState(false);
  const nameContains = useDeferredValue(search.trim());
  const query = useQuery({
    ...trpc.projects.list.queryOptions({ workspaceId, nameContains: nameContains || undefined }),
    placeholderData: (prev) => prev,
    // While the workspace has no project, look for the first trace every few seconds.
    refetchInterval: (q) => (q.state.data?.length === 0 && !nameContains ? 3000 : false),
  });

  const groups = splitSystem(query.data ?? []);
  const systemOpen = showSystem || groups.mine.length === 0;
  const row = (p: Project) => {
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
  };

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
              {groups.mine.map(row)}
              {groups.system.length > 0 && (
                <>
                  <tr className="group-row" data-testid="system-projects">
                    <td colSpan={9}>
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost"
                        aria-expanded={systemOpen}
                        onClick={() => setShowSystem(!systemOpen)}
                      >
                        {systemOpen ? "▾" : "▸"} System projects ({groups.system.length})
                      </button>
                      <span className="faint" style={{ fontSize: 12 }}>
                        LLM-judge calls, playground runs and the empty default project
                      </span>
                    </td>
                  </tr>
                  {systemOpen && groups.system.map(row)}
                </>
              )}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
