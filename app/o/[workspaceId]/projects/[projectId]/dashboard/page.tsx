"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use } from "react";
import { useTRPC } from "@/app/trpc-client";
import { Dashboard } from "../../../_components/charts/dashboard";
import { ErrorState } from "../../../_components/ui";

/** A project's monitoring dashboard: the same charts as the workspace's, scoped to this project. */
export default function ProjectDashboardPage({ params }: { params: Promise<{ workspaceId: string; projectId: string }> }) {
  const { workspaceId, projectId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const project = useQuery(trpc.projects.get.queryOptions({ workspaceId, projectId }));
  if (project.isError)
    return (
      <div className="page">
        <ErrorState error={project.error} title="Could not open this project" />
      </div>
    );
  return (
    <div className="page">
      <div className="page-header">
        <div className="col" style={{ gap: 2, minWidth: 0 }}>
          <div className="crumbs">
            <Link href={`/o/${workspaceId}/projects`}>Projects</Link>
            <span className="sep">/</span>
            <Link href={`/o/${workspaceId}/projects/${projectId}`}>{project.data?.name ?? "…"}</Link>
            <span className="sep">/</span>
          </div>
          <h1>Dashboard</h1>
        </div>
        <div className="segmented" role="group" aria-label="Project view">
          <button type="button" aria-pressed={false} onClick={() => router.push(`/o/${workspaceId}/projects/${projectId}`)}>
            Runs
          </button>
          <button type="button" aria-pressed>
            Dashboard
          </button>
          <button type="button" aria-pressed={false} onClick={() => router.push(`/o/${workspaceId}/projects/${projectId}/alerts`)}>
            Alerts
          </button>
        </div>
      </div>
      <Dashboard workspaceId={workspaceId} projectId={projectId} />
    </div>
  );
}
