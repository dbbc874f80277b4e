"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { axisLabels, scoreTicks } from "../../_components/charts/ticks";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";
import {
  formatCost,
  formatCount,
  formatExactTime,
  formatLatency,
  formatPercent,
  formatTime,
  formatTokens,
  relativeTime,
} from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { ScoreBar } from "./compare/score";
import styles from "./compare/compare.module.css";

type Experiment = RouterOutputs["experiments"]["list"][number];
type SortKey = "start_time" | "run_count" | "latency_p50" | "total_tokens" | "total_cost" | "error_rate" | `feedback:${string}`;

const MAX_COMPARED = 5;

function sortValue(e: Experiment, key: SortKey): number | string | null {
  if (key.startsWith("feedback:")) return e.feedback[key.slice("feedback:".length)]?.avg ?? null;
  return e[key as Exclude<SortKey, `feedback:${string}`>];
}

/** The metadata worth a glance (model, prompt, …): the SDK's own bookkeeping left out. */
function metadataChips(metadata: Record<string, unknown>): [string, string][] {
  return Object.entries(metadata)
    .filter(
      ([k, v]) =>
        !["num_repetitions", "dataset_version", "dataset_splits", "example_version"].includes(k) && v !== null && typeof v !== "object",
    )
    .slice(0, 3)
    .map(([k, v]) => [k, String(v)]);
}

function ScoreChart({ experiments, keys }: { experiments: Experiment[]; keys: string[] }) {
  const [key, setKey] = useState(keys[0]);
  const points = [...experiments]
    .filter((e) => e.feedback[key]?.avg != null)
    .sort((a, b) => a.start_time.localeCompare(b.start_time))
    .map((e) => ({ name: e.name, when: formatTime(e.start_time), score: e.feedback[key]!.avg }));
  const ticks = scoreTicks(points.map((p) => p.score!));
  const labels = new Map(axisLabels(`feedback:${key}`, ticks).map((label, i) => [ticks[i], label]));
  return (
    <div className={`card ${styles.chartCard}`}>
      <div className="row">
        <span className="stat-label">Score over time</span>
        <span className="grow" />
        <select className="select" aria-label="Score to chart" value={key} onChange={(e) => setKey(e.target.value)}>
          {keys.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </div>
      <div style={{ height: 160 }}>
        <ResponsiveContainer>
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--border)" vertical={false} />
            <XAxis dataKey="when" tick={{ fontSize: 11, fill: "var(--muted)" }} stroke="var(--border)" />
            <YAxis
              tick={{ fontSize: 11, fill: "var(--muted)" }}
              stroke="var(--border)"
              domain={[ticks[0], ticks[ticks.length - 1]]}
              ticks={ticks}
              interval={0}
              width={40}
              tickFormatter={(v: number) => labels.get(v) ?? String(v)}
            />
            <Tooltip
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", fontSize: 12 }}
              formatter={(value) => [Number(value).toFixed(3), key]}
              labelFormatter={(_, payload) => payload?.[0]?.payload?.name ?? ""}
            />
            <Line type="monotone" dataKey="score" stroke="var(--accent)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** A dataset's experiments: aggregate scores and costs per experiment, sortable; pick 2–5 to compare. */
export function ExperimentsTab({ workspaceId, datasetId }: { workspaceId: string; datasetId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.list.queryOptions({ workspaceId, datasetId }));
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "start_time", desc: true });
  const [picked, setPicked] = useState<string[]>([]);
  const experiments = useMemo(() => list.data ?? [], [list.data]);
  const keys = useMemo(() => [...new Set(experiments.flatMap((e) => Object.keys(e.feedback)))].sort(), [experiments]);
  const sorted = useMemo(
    () =>
      [...experiments].sort((a, b) => {
        const [x, y] = [sortValue(a, sort.key), sortValue(b, sort.key)];
        if (x === y) return 0;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (sort.desc ? -1 : 1);
      }),
    [experiments, sort],
  );
  if (list.isPending) return <LoadingState label="Loading experiments…" />;
  if (list.error) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  if (experiments.length === 0)
    return (
      <EmptyState title="No experiments yet">
        Run{" "}
        <code>
          evaluate(target, {"{"} data: &quot;dataset name&quot;, evaluators {"}"})
        </code>{" "}
        with the SDK: each run shows up here with its scores.
      </EmptyState>
    );
  const compareHref = (ids: string[]) => `/o/${workspaceId}/datasets/${datasetId}/compare?selectedSessions=${ids.join(",")}`;
  const header = (key: SortKey, label: string, numeric = true) => (
    <th className={numeric ? "num" : undefined} aria-sort={sort.key === key ? (sort.desc ? "descending" : "ascending") : "none"}>
      <button type="button" className={styles.sortButton} onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : true })}>
        {label}
        {sort.key === key ? (sort.desc ? " ↓" : " ↑") : ""}
      </button>
    </th>
  );
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-MAX_COMPARED)));
  return (
    <div className="col" style={{ gap: 12 }}>
      {keys.length > 0 && experiments.length > 1 && <ScoreChart experiments={experiments} keys={keys} />}
      <div className="row">
        <span className="muted">
          {picked.length === 0 ? "Tick 2–5 experiments to compare them example by example." : `${picked.length} selected`}
        </span>
        <span className="grow" />
        <Link
          href={compareHref(picked)}
          className="btn btn-primary btn-sm"
          aria-disabled={picked.length < 2}
          style={picked.length < 2 ? { opacity: 0.5, cursor: "default" } : undefined}
          data-testid="compare-selected"
          onClick={(e) => picked.length < 2 && e.preventDefault()}
        >
          Compare {picked.length >= 2 ? picked.length : ""}
        </Link>
      </div>
      <div className={`card ${styles.tableWrap}`}>
        <table className="table" data-testid="experiments">
          <thead>
            <tr>
              <th style={{ width: 32 }} />
              <th>Experiment</th>
              {header("start_time", "Started", false)}
              {keys.map((k) => header(`feedback:${k}`, k))}
              {header("run_count", "Runs")}
              {header("latency_p50", "Latency p50")}
              {header("total_tokens", "Tokens")}
              {header("total_cost", "Cost")}
              {header("error_rate", "Errors")}
              <th>Metadata</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((e) => (
              <tr key={e.id}>
                <td>
                  <input type="checkbox" aria-label={`Select ${e.name}`} checked={picked.includes(e.id)} onChange={() => toggle(e.id)} />
                </td>
                <td className="truncate" style={{ maxWidth: 320 }}>
                  <Link href={compareHref([e.id])}>{e.name}</Link>
                </td>
                <td title={formatExactTime(e.start_time)}>{relativeTime(e.start_time)}</td>
                {keys.map((k) => (
                  <td key={k} className="num">
                    <ScoreBar value={e.feedback[k]?.avg ?? null} />
                  </td>
                ))}
                <td className="num">{formatCount(e.run_count)}</td>
                <td className="num">{formatLatency(e.latency_p50)}</td>
                <td className="num">{formatTokens(e.total_tokens)}</td>
                <td className="num">{formatCost(e.total_cost)}</td>
                <td className="num">{formatPercent(e.error_rate)}</td>
                <td>
                  <div className="row" style={{ gap: 4, flexWrap: "wrap" }}>
                    {metadataChips(e.metadata).map(([k, v]) => (
                      <span key={k} className="badge" title={`${k}: ${v}`}>
                        <span className="faint">{k}</span> {v.length > 16 ? `${v.slice(0, 12)}…` : v}
                      </span>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
