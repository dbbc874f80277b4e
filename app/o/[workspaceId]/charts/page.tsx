"use client";

import { use, useState } from "react";
import { ChartSets } from "../_components/charts/chart-sets";
import { Dashboard } from "../_components/charts/dashboard";

/** Workspace charts: the monitoring dashboard over every project, and saved chart sets. */
export default function ChartsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const [view, setView] = useState<"dashboard" | "sets">("dashboard");
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Charts</h1>
          <div className="subtitle">Runs, errors, latency, first token, tokens and cost over time, across all projects.</div>
        </div>
        <div className="segmented" role="group" aria-label="Charts view">
          <button type="button" aria-pressed={view === "dashboard"} onClick={() => setView("dashboard")}>Dashboard</button>
          <button type="button" aria-pressed={view === "sets"} onClick={() => setView("sets")}>Chart sets</button>
        </div>
      </div>
      {view === "dashboard" ? <Dashboard workspaceId={workspaceId} /> : <ChartSets workspaceId={workspaceId} />}
    </div>
  );
}
