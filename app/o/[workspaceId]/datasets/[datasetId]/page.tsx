"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { use } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCount, formatExactTime, relativeTime } from "../../_components/format";
import { ErrorState } from "../../_components/ui";
import { useUrlState } from "../../_components/url-state";
import { ExamplesTab } from "./examples-tab";
import { ExperimentsTab } from "./experiments-tab";
import { PairwiseTab } from "./pairwise-tab";

const TABS = [
  ["examples", "Examples"],
  ["experiments", "Experiments"],
  ["pairwise", "Pairwise"],
] as const;
type Tab = (typeof TABS)[number][0];

export default function DatasetPage({ params }: { params: Promise<{ workspaceId: string; datasetId: string }> }) {
  const { workspaceId, datasetId } = use(params);
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState();
  const tab: Tab = TABS.find(([id]) => id === query.get("tab"))?.[0] ?? "examples";
  const dataset = useQuery(trpc.datasets.get.queryOptions({ workspaceId, datasetId }));
  if (dataset.error)
    return (
      <div className="page">
        <ErrorState error={dataset.error} title="Could not open this dataset" />
      </div>
    );
  const d = dataset.data;
  const total = d?.example_count ?? 0;
  return (
    <div className="page">
      <div className="page-header">
        <div className="col" style={{ gap: 2, minWidth: 0 }}>
          <div className="crumbs">
            <Link href={`/o/${workspaceId}/datasets`}>Datasets</Link>
            <span className="sep">/</span>
          </div>
          <h1 data-testid="dataset-name">{d?.name ?? "…"}</h1>
          {d?.description && <div className="subtitle">{d.description}</div>}
        </div>
      </div>
      <div className="stat-row" style={{ maxWidth: 640 }}>
        <div className="stat">
          <div className="stat-label">Examples</div>
          <div className="stat-value">{d ? formatCount(d.example_count) : "…"}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Type</div>
          <div className="stat-value">{d?.data_type ?? "…"}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Experiments</div>
          <div className="stat-value">{d ? formatCount(d.session_count) : "…"}</div>
        </div>
        <div className="stat">
          <div className="stat-label">Modified</div>
          <div className="stat-value" title={formatExactTime(d?.modified_at)}>
            {d ? relativeTime(d.modified_at) : "…"}
          </div>
        </div>
      </div>
      <div className="segmented" role="tablist" aria-label="Dataset" style={{ alignSelf: "flex-start" }}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-pressed={tab === id}
            aria-selected={tab === id}
            onClick={() => setQuery({ tab: id === "examples" ? null : id })}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === "examples" ? (
        <ExamplesTab workspaceId={workspaceId} datasetId={datasetId} total={total} />
      ) : tab === "experiments" ? (
        <ExperimentsTab workspaceId={workspaceId} datasetId={datasetId} />
      ) : (
        <PairwiseTab workspaceId={workspaceId} datasetId={datasetId} />
      )}
    </div>
  );
}
