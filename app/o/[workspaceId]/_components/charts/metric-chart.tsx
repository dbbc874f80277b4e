"use client";

import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Chart, Series } from "@/server/charts/series";
import { formatCost, formatCount, formatLatency, formatPercent, formatTokens } from "../format";
import styles from "./charts.module.css";
import { axisLabels, niceTicks } from "./ticks";
import { timeTicks } from "./time-ticks";

import { PALETTE } from "./palette";

export { PALETTE };

export const METRIC_LABELS: Record<string, string> = {
  run_count: "Runs",
  error_count: "Errors",
  error_rate: "Error rate",
  latency_p50: "Latency p50",
  latency_p99: "Latency p99",
  first_token_p50: "First token p50",
  first_token_p99: "First token p99",
  prompt_tokens: "Prompt tokens",
  completion_tokens: "Completion tokens",
  total_tokens: "Total tokens",
  prompt_cost: "Prompt cost",
  completion_cost: "Completion cost",
  total_cost: "Total cost",
  feedback: "Feedback (avg score)",
};

/** How a metric's values read: seconds, counts, tokens, dollars or a rate. */
export function formatMetric(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  if (metric.startsWith("latency") || metric.startsWith("first_token")) return formatLatency(value);
  if (metric.endsWith("_cost")) return value === 0 ? "$0" : formatCost(value);
  if (metric === "error_rate") return formatPercent(value);
  if (metric.endsWith("_tokens")) return value === 0 ? "0" : formatTokens(value);
  if (metric.startsWith("feedback")) return value.toFixed(2);
  return formatCount(value);
}

export const seriesKey = (s: Series) => (s.group === null ? s.metric : `${s.metric}|${s.group}`);
const metricLabel = (metric: string) =>
  metric.startsWith("feedback:") ? metric.slice("feedback:".length) : (METRIC_LABELS[metric] ?? metric);
export const seriesName = (s: Series, showMetric: boolean) =>
  s.group === null ? metricLabel(s.metric) : showMetric ? `${s.group} · ${metricLabel(s.metric)}` : s.group;

export type ChartKind = "line" | "area" | "bar";

/** One chart card: the chosen series of a chart answer, over its buckets, with a hover tooltip. */
export function MetricChart({
  title,
  chart,
  metrics,
  kind = "line",
  stacked = false,
  height = 180,
  testId,
  action,
  emptyText = "No data in this range",
  onSelect,
}: {
  title: string;
  /** A click on a bucket (a bar: and its group) opens the runs behind it. */
  onSelect?: (bucketStart: string, group: string | null) => void;
  /** A control drawn in the card's header (e.g. "Remove" while editing a set). */
  action?: React.ReactNode;
  emptyText?: string;
  chart: Chart;
  /** Which series to draw (metrics as named by the service; feedback series start with "feedback:"). */
  metrics: string[];
  kind?: ChartKind;
  stacked?: boolean;
  height?: number;
  testId?: string;
}) {
  const series = chart.series.filter((s) => metrics.some((m) => s.metric === m || (m === "feedback" && s.metric.startsWith("feedback:"))));
  const primary = series[0]?.metric ?? metrics[0];
  const showMetric = new Set(series.map((s) => s.metric)).size > 1;
  const rows = chart.buckets.map((t, i) => {
    const row: Record<string, number | string | null> = { t };
    for (const s of series) row[seriesKey(s)] = s.values[i];
    return row;
  });
  const empty = series.every((s) => s.values.every((v) => v === null || v === 0));
  // One or two points draw no visible line: mark each point then.
  const sparse = series.every((s) => s.values.filter((v) => v !== null).length < 3);
  const integer = primary === "run_count" || primary === "error_count" || primary.endsWith("_tokens");
  const peak =
    stacked && series.length > 1
      ? Math.max(0, ...chart.buckets.map((_, i) => series.reduce((a, s) => a + (s.values[i] ?? 0), 0)))
      : Math.max(0, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  // 0–1 feedback scores keep their 0–1 scale; the rest run from zero to a round ceiling.
  const scoreScale = primary.startsWith("feedback") && peak <= 1 && peak > 0.5;
  const ticks = scoreScale ? [0, 0.25, 0.5, 0.75, 1] : niceTicks(peak, integer);
  const labels = new Map(axisLabels(primary, ticks).map((label, i) => [ticks[i], label]));
  // The time axis follows the range alone, so every chart over it marks the same instants.
  const time = timeTicks(chart.buckets, chart.bucket_seconds);
  // Wide enough for the longest label (11 px text: about 6.5 px a character).
  const axisWidth = Math.max(40, Math.ceil(Math.max(...[...labels.values()].map((l) => l.length)) * 6.5) + 12);
  const totalOf = (s: Series) => s.values.reduce<number>((a, v) => a + (v ?? 0), 0);
  const groupOf = (key: string) => series.find((s) => seriesKey(s) === key)?.group ?? null;
  const common = {
    data: rows,
    margin: { top: 6, right: 8, bottom: 0, left: 0 },
    // Lines and areas: the bucket under the pointer (with one group drawn, that group).
    onClick:
      onSelect && kind !== "bar"
        ? (state: { activeLabel?: string | number }) => {
            if (state?.activeLabel !== undefined) onSelect(String(state.activeLabel), series.length === 1 ? series[0]!.group : null);
          }
        : undefined,
    style: onSelect ? { cursor: "pointer" } : undefined,
  };
  const axes = (
    <>
      <CartesianGrid stroke="var(--border)" vertical={false} />
      <XAxis
        dataKey="t"
        ticks={time.ticks}
        interval={0}
        tickFormatter={time.label}
        tick={{ fontSize: 11, fill: "var(--muted)" }}
        tickLine={false}
        axisLine={{ stroke: "var(--border)" }}
      />
      <YAxis
        domain={[0, ticks[ticks.length - 1]]}
        ticks={ticks}
        interval={0}
        tickFormatter={(v: number) => labels.get(v) ?? String(v)}
        tick={{ fontSize: 11, fill: "var(--muted)" }}
        tickLine={false}
        axisLine={false}
        width={axisWidth}
      />
      <Tooltip
        labelFormatter={(t) => new Date(String(t)).toLocaleString()}
        separator=": "
        formatter={(value, name, item) => {
          const key = String(item?.dataKey ?? "");
          const metric = key.split("|")[0];
          return [formatMetric(metric, value as number | null), name];
        }}
        contentStyle={{ fontSize: 12, borderRadius: 6, border: "1px solid var(--border)", boxShadow: "var(--shadow-pop)" }}
        cursor={kind === "bar" ? { fill: "var(--hover)" } : { stroke: "var(--border-strong)" }}
      />
      {series.length > 1 && <Legend iconSize={8} wrapperStyle={{ fontSize: 11 }} />}
    </>
  );
  const drawn = series.map((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const props = { key: seriesKey(s), dataKey: seriesKey(s), name: seriesName(s, showMetric), isAnimationActive: false };
    // Bars: the bar clicked is one bucket of one group.
    const select = onSelect
      ? (bar: { payload?: { t?: string } }) => bar?.payload?.t && onSelect(bar.payload.t, groupOf(seriesKey(s)))
      : undefined;
    if (kind === "bar") return <Bar {...props} fill={color} stackId={stacked ? "a" : undefined} maxBarSize={18} onClick={select} />;
    // Empty buckets stay gaps: a line never suggests values that were not measured.
    if (kind === "area")
      return (
        <Area
          {...props}
          type="monotone"
          stroke={color}
          fill={color}
          fillOpacity={0.15}
          strokeWidth={1.5}
          stackId={stacked ? "a" : undefined}
          connectNulls={false}
        />
      );
    return (
      <Line {...props} type="monotone" stroke={color} strokeWidth={1.5} dot={sparse ? { r: 3, fill: color } : false} connectNulls={false} />
    );
  });
  const headline =
    series.length === 1 &&
    (primary === "run_count" || primary === "error_count" || primary.endsWith("_tokens") || primary.endsWith("_cost"))
      ? formatMetric(primary, totalOf(series[0]))
      : null;
  return (
    <div className={`card ${styles.chartCard}`} data-testid={testId ?? "chart"}>
      <div className={styles.chartHead}>
        <h3>{title}</h3>
        <span className="row">
          {headline && <span className={styles.headline}>{headline}</span>}
          {action}
        </span>
      </div>
      <div style={{ height }}>
        {empty ? (
          <div className={styles.noData}>{emptyText}</div>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            {kind === "bar" ? (
              <BarChart {...common}>
                {axes}
                {drawn}
              </BarChart>
            ) : kind === "area" ? (
              <AreaChart {...common}>
                {axes}
                {drawn}
              </AreaChart>
            ) : (
              <LineChart {...common}>
                {axes}
                {drawn}
              </LineChart>
            )}
          </ResponsiveContainer>
        )}
      </div>
    </div>
  );
}
