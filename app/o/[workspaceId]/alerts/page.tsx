"use client";

import { use } from "react";
import { AlertsView } from "./alerts-view";

/** Every alert rule of the workspace, whatever its project, and the evaluator spend alerts. */
export default function AlertsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  return (
    <div className="page">
      <div className="page-header">
        <div className="col" style={{ gap: 2 }}>
          <h1>Alerts</h1>
          <span className="muted" style={{ fontSize: 12 }}>
            Evaluated every minute from the projects&apos; statistics; notifications go to Slack, PagerDuty or a webhook.
          </span>
        </div>
      </div>
      <AlertsView workspaceId={workspaceId} />
    </div>
  );
}
