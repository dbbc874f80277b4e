"use client";

import { use } from "react";
import { Dashboard } from "../../../_components/charts/dashboard";
import { ProjectSubpage } from "../project-subpage";

/** A project's monitoring dashboard: the same charts as the workspace's, scoped to this project. */
export default function ProjectDashboardPage({ params }: { params: Promise<{ workspaceId: string; projectId: string }> }) {
  const { workspaceId, projectId } = use(params);
  return (
    <ProjectSubpage workspaceId={workspaceId} projectId={projectId} title="Dashboard" view="Dashboard">
      <Dashboard workspaceId={workspaceId} projectId={projectId} />
    </ProjectSubpage>
  );
}
