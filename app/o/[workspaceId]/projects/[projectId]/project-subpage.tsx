"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/trpc-client";
import { ErrorState } from "../../_components/ui";

const VIEWS = [
  { label: "Runs", path: "" },
  { label: "Dashboard", path: "/dashboard" },
  { label: "Alerts", path: "/alerts" },
] as const;

/**
 * A page under one project (its dashboard, alerts, users): the crumbs back to the project, the
 * title, and — for the views the project header switches between — the Runs / Dashboard / Alerts
 * switch with this one pressed, then the page's own actions.
 */
export function ProjectSubpage({
  workspaceId,
  projectId,
  title,
  subtitle,
  view,
  actions,
  children,
}: {
  workspaceId: string;
  projectId: string;
  title: string;
  subtitle?: ReactNode;
  view?: (typeof VIEWS)[number]["label"];
  /** Buttons at the header's end (after the view switch), as other pages put theirs. */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const project = useQuery(trpc.projects.get.queryOptions({ workspaceId, projectId }));
  const base = `/o/${workspaceId}/projects/${projectId}`;
  if (project.isError)
    return (
      <div className="page">
        <ErrorState error={project.error} title="Could not open this project" />
      </div>
    );
  return (
    <div className="page" style={{ display: "flex", flexDirection: "column", gap: 12 }}>
      <div className="page-header">
        <div className="col" style={{ gap: 2, minWidth: 0 }}>
          <div className="crumbs">
            <Link href={`/o/${workspaceId}/projects`}>Projects</Link>
            <span className="sep">/</span>
            <Link href={base}>{project.data?.name ?? "…"}</Link>
            <span className="sep">/</span>
          </div>
          <h1>{title}</h1>
          {subtitle && <div className="subtitle">{subtitle}</div>}
        </div>
        <div className="row">
          {view && (
            <div className="segmented" role="group" aria-label="Project view">
              {VIEWS.map((v) => (
                <button
                  key={v.label}
                  type="button"
                  aria-pressed={v.label === view}
                  onClick={() => v.label !== view && router.push(base + v.path)}
                >
                  {v.label}
                </button>
              ))}
            </div>
          )}
          {actions}
        </div>
      </div>
      {children}
    </div>
  );
}
