"use client";

import { use } from "react";
import { AlertsView, NewAlertButton } from "../../../alerts/alerts-view";
import { ProjectSubpage } from "../project-subpage";

/** A project's Alerts tab: its alert rules, their charts against the threshold and their history. */
export default function ProjectAlertsPage({ params }: { params: Promise<{ workspaceId: string; projectId: string }> }) {
  const { workspaceId, projectId } = use(params);
  return (
    <ProjectSubpage workspaceId={workspaceId} projectId={projectId} title="Alerts" view="Alerts" actions={<NewAlertButton />}>
      <AlertsView workspaceId={workspaceId} projectId={projectId} />
    </ProjectSubpage>
  );
}
