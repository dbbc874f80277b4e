"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use } from "react";
import { useTRPC } from "@/app/trpc-client";
import { AlertsView } from "../../../alerts/alerts-view";
import { ErrorState } from "../../../_components/ui";

/** A project's Alerts tab: its alert rules, their charts against the threshold and their history. */
export default function ProjectAlertsPage({ params }: { params: Promise<{ workspaceId: string; projectId: string }> }) {
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
          <h1>Alerts</h1>
        </div>
        <div className="segmented" role="group" aria-label="Project view">
          <button type="button" aria-pressed={false} onClick={() => router.push(`/o/${workspaceId}/projects/${projectId}`)}>
            Runs
          </button>
          <button type="button" aria-pressed={false} onClick={() => router.push(`/o/${workspaceId}/projects/${projectId}/dashboard`)}>
            Dashboard
          </button>
          <button type="button" aria-pressed>
            Alerts
          </button>
        </div>
      </div>
      <AlertsView workspaceId={workspaceId} projectId={projectId} />
    </div>
  );
}
