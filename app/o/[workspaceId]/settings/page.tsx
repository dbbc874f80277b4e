"use client";

import { useQuery } from "@tanstack/react-query";
import { Suspense, use } from "react";
import { useTRPC } from "@/app/trpc-client";
import { ApiKeys } from "../_components/settings/api-keys";
import { AuditLog } from "../_components/settings/audit-log";
import { ModelConnections } from "../_components/settings/connections";
import { Members } from "../_components/settings/members";
import { ModelPrices } from "../_components/settings/prices";
import { ErrorState, LoadingState } from "../_components/ui";
import { useUrlState } from "../_components/url-state";

const TABS = [
  ["keys", "API keys"],
  ["members", "Members"],
  ["prices", "Model prices"],
  ["models", "Model connections"],
  ["audit", "Audit log"],
] as const;
type Tab = (typeof TABS)[number][0];
const isTab = (value: string | null): value is Tab => TABS.some(([id]) => id === value);

/** Settings with the open tab in the URL (`?tab=members`), so each tab can be linked to. */
function Settings({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const current = useQuery(trpc.workspaces.current.queryOptions({ workspaceId }));
  const [params, setParams] = useUrlState();
  const requested = params.get("tab");
  const tab: Tab = isTab(requested) ? requested : "keys";
  const setTab = (id: Tab) => setParams({ tab: id === "keys" ? null : id });
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Settings</h1>
          <div className="subtitle">{current.data ? `${current.data.name} · you are ${current.data.role}` : "\u00a0"}</div>
        </div>
        <div className="segmented" role="tablist" aria-label="Settings">
          {TABS.map(([id, label]) => (
            <button key={id} type="button" role="tab" aria-pressed={tab === id} aria-selected={tab === id} onClick={() => setTab(id)}>
              {label}
            </button>
          ))}
        </div>
      </div>
      {current.isPending ? (
        <LoadingState />
      ) : current.error ? (
        <ErrorState error={current.error} retry={() => current.refetch()} />
      ) : tab === "keys" ? (
        <ApiKeys workspaceId={workspaceId} role={current.data.role} />
      ) : tab === "members" ? (
        <Members workspaceId={workspaceId} role={current.data.role} />
      ) : tab === "audit" ? (
        <AuditLog workspaceId={workspaceId} role={current.data.role} />
      ) : tab === "models" ? (
        <ModelConnections workspaceId={workspaceId} role={current.data.role} />
      ) : (
        <ModelPrices workspaceId={workspaceId} role={current.data.role} />
      )}
    </div>
  );
}

export default function SettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  return (
    <Suspense fallback={<LoadingState />}>
      <Settings workspaceId={workspaceId} />
    </Suspense>
  );
}
