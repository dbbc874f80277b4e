"use client";

import { useQuery } from "@tanstack/react-query";
import { use } from "react";
import { useTRPC } from "@/app/trpc-client";
import { ChartSets } from "../_components/charts/chart-sets";
import { Dashboard } from "../_components/charts/dashboard";
import { useUrlState } from "../_components/url-state";

/** Workspace charts: the monitoring dashboard over every project (or one), and saved chart sets. */
export default function ChartsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState();
  const view = query.get("view") === "sets" ? "sets" : "dashboard";
  const projectId = query.get("project");
  const projects = useQuery(trpc.projects.list.queryOptions({ workspaceId, limit: 200 }));
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Charts</h1>
          <div className="subtitle">
            Runs, errors, latency, first token, tokens and cost over time{projectId ? "" : ", across all projects"}.
          </div>
        </div>
        <div className="row">
          {view === "dashboard" ? (
            <select
              className="select"
              value={projectId ?? ""}
              onChange={(e) => setQuery({ project: e.target.value || null })}
              aria-label="Project"
            >
              <option value="">All projects</option>
              {(projects.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          ) : null}
          <div className="segmented" role="group" aria-label="Charts view">
            <button type="button" aria-pressed={view === "dashboard"} onClick={() => setQuery({ view: null })}>
              Dashboard
            </button>
            <button type="button" aria-pressed={view === "sets"} onClick={() => setQuery({ view: "sets" })}>
              Chart sets
            </button>
          </div>
        </div>
      </div>
      {view === "dashboard" ? (
        <Dashboard workspaceId={workspaceId} projectId={projectId ?? undefined} />
      ) : (
        <ChartSets workspaceId={workspaceId} />
      )}
    </div>
  );
}
