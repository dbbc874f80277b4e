"use client";

import { use } from "react";
import { AlertsView, NewAlertButton } from "./alerts-view";

/** Every alert rule of the workspace, whatever its project, and the evaluator spend alerts. */
export default function AlertsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Alerts</h1>
          <div className="subtitle">
            Evaluated every minute from the projects&apos; statistics; notifications go to Slack, PagerDuty or a webhook.
          </div>
        </div>
        <NewAlertButton />
      </div>
      <AlertsView workspaceId={workspaceId} />
    </div>
  );
}
