import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { formatMicros } from "../core/time";
import { runConditions } from "../runs/conditions";
import { countRows, dimFeedbackRows, dimSketchRows, feedbackRows, HISTOGRAM, SKETCH } from "../runs/rollups/measures";
import { dimRange, filterDim, hourRange, rollupConditions, type Dim } from "../runs/rollups/scope";
import { EMPTY, histogram, percentiles, type BinArrays } from "../runs/rollups/sketch";
import type { RunSelection } from "../runs/selection";
import type { GroupBy, Metric } from "./schema";

/** One group's aggregates in one bucket: `runs` ranks the groups, the metrics are the series' values. */
export type ChartRow = Record<string, number | null> & { bucket: number; label: string | null; runs: number };
export interface ChartRows {
  rows: ChartRow[];
  feedback: { bucket: number; label: string | null; key: string; avg: number | null }[];
}

/** A chart's time window: [startMs, endMs) in buckets of `seconds`. */
export interface ChartWindow {
  startMs: number;
  endMs: number;
  seconds: number;
}

const NONE = "(none)";
const PERCENTILES: Partial<Record<Metric, { metric: number; q: number; scale: number }>> = {
  latency_p50: { metric: SKETCH.latency, q: 0.5, scale: 1 / 1000 },
  latency_p99: { metric: SKETCH.latency, q: 0.99, scale: 1 / 1000 },
  first_token_p50: { metric: SKETCH.firstToken, q: 0.5, scale: 1 },
  first_token_p99: { metric: SKETCH.firstToken, q: 0.99, scale: 1 },
};
const ERRORS = "coalesce(sum(runs) FILTER (WHERE status = 'error'), 0)::float8";
const SUMS: Partial<Record<Metric, string>> = {
  run_count: "sum(runs)::float8",
  error_count: ERRORS,
  error_rate: `${ERRORS} / sum(runs)`,
  prompt_tokens: "sum(prompt_tokens)::float8",
  completion_tokens: "sum(completion_tokens)::float8",
  total_tokens: "sum(total_tokens)::float8",
  prompt_cost: "sum(prompt_cost)::float8",
  completion_cost: "sum(completion_cost)::float8",
  total_cost: "sum(total_cost)::float8",
};
/** Groupings the run_buckets carry, and the ones the sketches and feedback buckets carry too. */
const COUNT_GROUPS = new Set(["model", "provider", "name", "run_type", "status"]);
const SHARED_GROUPS = new Set(["run_type", "status"]);

function label(group: GroupBy | null | undefined): SqlFragment {
  if (!group) return sql`NULL::text`;
  if (group.attribute === "model" || group.attribute === "provider") return sql`coalesce(x.${raw(group.attribute)}, ${NONE})`;
  return sql`x.${raw(group.attribute)}`;
}

/**
 * A chart's rows from the rollups: whole hours from the buckets, the partial hours at the window's
 * edges from the runs. Null when the rollups cannot answer (a bucket narrower than an hour, a
 * filter or grouping beyond their dimensions); the scan answers then, with the same numbers.
 */
export async function rollupChartRows(
  db: Sql,
  workspaceId: string,
  selection: RunSelection,
  metrics: readonly Metric[],
  group: GroupBy | null | undefined,
  window: ChartWindow,
): Promise<ChartRows | null> {
  if (window.seconds % 3600 !== 0) return null;
  if (group && !COUNT_GROUPS.has(group.attribute)) return null;
  const dims = rollupConditions(workspaceId, selection, "b");
  if (!dims) return null;
  const sketched = [...new Set(metrics.flatMap((m) => (PERCENTILES[m] ? [PERCENTILES[m].metric] : [])))];
  const needsShared = sketched.length > 0 || metrics.includes("feedback");
  // Percentiles and feedback by name, model or provider (filtered or grouped by one of them, not two):
  // the single-dimension rollups of that dimension.
  let dim: Dim | null = null;
  if (needsShared && (dims.reach !== "all" || (group && !SHARED_GROUPS.has(group.attribute)))) {
    const named = filterDim(selection);
    const grouped = group && !SHARED_GROUPS.has(group.attribute) ? (group.attribute as Dim) : null;
    if (named === null || (named !== "none" && grouped && grouped !== named)) return null;
    dim = grouped ?? (named === "none" ? null : named);
    if (!dim) return null;
  }
  const start = BigInt(window.startMs) * 1000n;
  const end = BigInt(window.endMs) * 1000n;
  const hours = hourRange(start, end);
  // Sketches of the dimension, or of none: whole days from day rows when the chart's buckets are days.
  const dimHours = dimRange(start, end, window.seconds % 86_400 === 0);
  if (!hours || !dimHours) return null;

  const edge = hours.edges("r");
  const edges =
    edge &&
    sql`${runConditions(workspaceId, selection, "r")} AND r.start_time >= ${formatMicros(start)}::timestamptz
      AND r.start_time < ${formatMicros(end)}::timestamptz AND ${edge}`;
  const buckets = hours.buckets("b").map((where) => sql`${dims.where} AND ${where}`);
  // date_part is float8 arithmetic: EXTRACT's numeric took ~55 of 283 ms reading 92,000 sketch rows.
  const bucket = sql`(floor(date_part('epoch', x.t) / ${window.seconds}) * ${window.seconds})::float8`;
  const sums = metrics.flatMap((m) => (SUMS[m] ? [sql`, ${raw(SUMS[m])} AS ${raw(`"${m}"`)}`] : []));
  const [rows, bins, feedback] = await Promise.all([
    db.query<ChartRow>(sql`
      SELECT ${bucket} AS bucket, ${label(group)} AS label, sum(runs)::int AS runs${sums.reduce((acc, c) => sql`${acc}${c}`, sql``)}
      FROM (${countRows(buckets, edges)}) x GROUP BY 1, 2 HAVING sum(runs) > 0`),
    sketched.length
      ? // One row per point and metric with its rows' bins and counts as arrays: histogram() sums a
        // code's counts, so the database need not group ~50,000 (day, model, bin) keys nor send them.
        db.query<{ bucket: number; label: string | null; metric: number } & BinArrays>(sql`
        SELECT ${bucket} AS bucket, ${label(group)} AS label, metric, ${HISTOGRAM}
        FROM (${dimSketchRows(sketched, dims.where, dim ?? "none", dimHours, edges)}) x
        GROUP BY 1, 2, 3`)
      : Promise.resolve([]),
    metrics.includes("feedback")
      ? db.query<ChartRows["feedback"][number]>(sql`
        SELECT ${bucket} AS bucket, ${label(group)} AS label, key, (sum(score_sum) / sum(score_n))::float8 AS avg
        FROM (${dim ? dimFeedbackRows(dims.where, dim, dimHours, edges) : feedbackRows(buckets, edges)}) x
        GROUP BY 1, 2, 3 HAVING sum(score_n) > 0`)
      : Promise.resolve([]),
  ]);

  const histograms = new Map(bins.map((b) => [JSON.stringify([b.bucket, b.label, b.metric]), histogram(b)]));
  for (const row of rows) {
    for (const m of metrics) {
      const p = PERCENTILES[m];
      if (!p) continue;
      const [value] = percentiles(histograms.get(JSON.stringify([row.bucket, row.label, p.metric])) ?? EMPTY, [p.q]);
      row[m] = value === null ? null : value * p.scale;
    }
  }
  return { rows, feedback };
}
