"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/app/trpc-client";
import type { Metric } from "@/server/charts/schema";
import { ErrorState } from "../ui";
import { useUrlState } from "../url-state";
import { bucketFilter } from "./bucket-filter";
import { MetricChart, type ChartKind } from "./metric-chart";
import { RangePicker, useRange } from "./range";
import styles from "./charts.module.css";

const GROUPS = [
  ["", "No grouping"],
  ["model", "Model"],
  ["name", "Run name"],
  ["tag", "Tag"],
  ["run_type", "Run type"],
  ["provider", "Provider"],
] as const;
type Group = (typeof GROUPS)[number][0];

interface Panel {
  title: string;
  /** Narrows the runs a click opens (the Errors panel opens the failed ones). */
  filter?: string;
  metrics: Metric[];
  /** What to draw per group when grouped (one metric, or the lines get unreadable). */
  grouped: Metric;
  kind: ChartKind;
  stacked?: boolean;
  emptyText?: string;
}

const PANELS: Panel[] = [
  { title: "Runs", metrics: ["run_count"], grouped: "run_count", kind: "bar", stacked: true },
  {
    title: "Errors",
    metrics: ["error_count"],
    grouped: "error_count",
    kind: "bar",
    stacked: true,
    emptyText: "No errors in this range",
    filter: "eq(error, true)",
  },
  {
    title: "Error rate",
    metrics: ["error_rate"],
    grouped: "error_rate",
    kind: "line",
    emptyText: "No errors in this range",
    filter: "eq(error, true)",
  },
  { title: "Latency", metrics: ["latency_p50", "latency_p99"], grouped: "latency_p50", kind: "line" },
  { title: "Time to first token", metrics: ["first_token_p50", "first_token_p99"], grouped: "first_token_p50", kind: "line" },
  { title: "Tokens", metrics: ["prompt_tokens", "completion_tokens"], grouped: "total_tokens", kind: "bar", stacked: true },
  { title: "Cost", metrics: ["total_cost"], grouped: "total_cost", kind: "bar", stacked: true },
  { title: "Feedback scores", metrics: ["feedback"], grouped: "feedback", kind: "line", emptyText: "No feedback scores in this range" },
];

const ALL_METRICS = [...new Set(PANELS.flatMap((p) => [...p.metrics, p.grouped]))];
const isGroup = (value: string | null): value is Group => GROUPS.some(([g]) => g === value);

/** The monitoring dashboard for the workspace or one project: range picker, grouping, one card per metric. */
export function Dashboard({ workspaceId, projectId }: { workspaceId: string; projectId?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { range, setRange, window, refresh } = useRange("24h");
  const [params, setParams] = useUrlState();
  const group: Group = isGroup(params.get("group")) ? (params.get("group") as Group) : "";
  const rootOnly = params.get("root") === "1";
  const query = useQuery({
    ...trpc.charts.series.queryOptions({
      workspaceId,
      projectId: projectId ?? null,
      request: {
        ...window,
        metrics: ALL_METRICS,
        group_by: group ? { attribute: group } : null,
        max_groups: 8,
        is_root: rootOnly ? true : null,
      },
    }),
    placeholderData: (previous) => previous,
  });
  // A bucket (and group) clicked opens the project's runs behind it; with no project there is no runs page to open.
  const open = (panel: Panel) =>
    projectId
      ? (bucket: string, groupValue: string | null) => {
          const filter = bucketFilter(
            bucket,
            query.data!.bucket_seconds,
            group && groupValue !== null ? { attribute: group, value: groupValue } : null,
            panel.filter,
          );
          router.push(`/o/${workspaceId}/projects/${projectId}?${new URLSearchParams({ filter, ...(rootOnly ? {} : { root: "0" }) })}`);
        }
      : undefined;
  return (
    <div className={styles.dashboard} data-testid="dashboard">
      <div className={styles.toolbar}>
        <RangePicker value={range} onChange={setRange} />
        <label className="row muted">
          Group by
          <select className="select" value={group} onChange={(e) => setParams({ group: e.target.value || null })} aria-label="Group by">
            {GROUPS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="row muted">
          <input type="checkbox" checked={rootOnly} onChange={(e) => setParams({ root: e.target.checked ? "1" : null })} /> Root runs only
        </label>
        <span className="grow" />
        {query.isFetching && <span className="spinner" aria-label="Loading" />}
        <button type="button" className="btn btn-sm" onClick={refresh}>
          Refresh
        </button>
      </div>
      {query.error ? (
        <ErrorState error={query.error} title="Could not load the charts" retry={() => query.refetch()} />
      ) : !query.data ? (
        <div className={styles.grid}>
          {PANELS.map((p) => (
            <div key={p.title} className={`card ${styles.chartCard}`}>
              <div className="skeleton" style={{ width: 90 }} />
              <div className="skeleton" style={{ height: 160, marginTop: 12 }} />
            </div>
          ))}
        </div>
      ) : (
        <div className={styles.grid}>
          {PANELS.map((p) => (
            <MetricChart
              key={p.title}
              title={p.title}
              chart={query.data}
              metrics={group ? [p.grouped] : p.metrics}
              kind={p.kind}
              stacked={p.stacked && (!!group || p.metrics.length > 1)}
              emptyText={p.emptyText}
              onSelect={open(p)}
              testId={`chart-${p.title.toLowerCase().replace(/\s+/g, "-")}`}
            />
          ))}
        </div>
      )}
    </div>
  );
}
