import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { formatMicros } from "../core/time";
import { runConditions } from "../runs/conditions";
import type { RunSelection } from "../runs/selection";
import { countRows, dimSketchRows, feedbackRows, HISTOGRAM, RUNS_WITH_TOTALS, SKETCH } from "../runs/rollups/measures";
import { dimRange, hourRange, rollupConditions, type DimRange } from "../runs/rollups/scope";
import { histogram, percentiles, type BinArrays } from "../runs/rollups/sketch";
import type { AlertMetric } from "./schema";

/*
 * Set-based SQL on purpose (the exception ARCHITECTURE.md allows): each read is one aggregate over
 * the rollup buckets and the runs at the window's edges, built from the same filter compiler and
 * rollup measures the statistics use (`runs/conditions`, `runs/rollups`), so an alert measures
 * exactly what the charts show. Prisma Client cannot express the filter language, the bucket
 * conditions or the sketches' percentiles; reading the rows to sum them in JS would turn an index
 * range per evaluation into a scan, once a minute per rule (`npx tsx bench/alerts.ts`, docs/alerts.md).
 */

/** What an evaluation measures: a project's runs (optionally filtered) over [startMs, endMs). */
export interface MetricQuery {
  workspaceId: string;
  projectId: string;
  filter: string | null;
  rootRunsOnly: boolean;
  metric: Exclude<AlertMetric, "evaluator_spend_share">;
  feedbackKey: string | null;
  feedbackValue: string | null;
  startMs: number;
  endMs: number;
}

/** The value (null: no data in the window) and where it was read. */
export interface Measured {
  value: number | null;
  source: "rollups" | "scan";
}

const PERCENTILE: Partial<Record<AlertMetric, { sketch: number; q: number; scale: number }>> = {
  latency_p50: { sketch: SKETCH.latency, q: 0.5, scale: 1 / 1000 },
  latency_p95: { sketch: SKETCH.latency, q: 0.95, scale: 1 / 1000 },
  latency_p99: { sketch: SKETCH.latency, q: 0.99, scale: 1 / 1000 },
  first_token_p95: { sketch: SKETCH.firstToken, q: 0.95, scale: 1 },
};
const at = (ms: number) => sql`${formatMicros(BigInt(ms) * 1000n)}::timestamptz`;
/** Matches no rollup row: a window inside one hour is read from the runs alone. */
const NO_BUCKETS = [sql`FALSE`];
const NO_SKETCHES: DimRange = { merged: () => [sql`FALSE`], deltas: () => sql`FALSE` };

const selection = (q: MetricQuery): RunSelection => ({
  projectIds: [q.projectId],
  filter: q.filter ?? undefined,
  isRoot: q.rootRunsOnly ? true : undefined,
});

/**
 * The metric from the rollups, as the statistics read them: whole hours from the buckets, the
 * partial hours at the window's edges from the runs (a window of a few minutes is all edge: an
 * index range of the runs table). Null when the rollups cannot answer the filter.
 */
async function fromRollups(db: Sql, q: MetricQuery): Promise<Measured | null> {
  const dims = rollupConditions(q.workspaceId, selection(q), "b");
  if (!dims) return null;
  const needsShared = q.metric in PERCENTILE || q.metric.startsWith("feedback_");
  if (needsShared && dims.reach !== "all") return null;
  const start = BigInt(q.startMs) * 1000n;
  const end = BigInt(q.endMs) * 1000n;
  const hours = hourRange(start, end);
  const inWindow = sql`${runConditions(q.workspaceId, selection(q), "r")} AND r.start_time >= ${at(q.startMs)} AND r.start_time < ${at(q.endMs)}`;
  const edge = hours ? hours.edges("r") : sql`TRUE`;
  const edges = edge && sql`${inWindow} AND ${edge}`;
  const buckets = hours ? hours.buckets("b").map((where) => sql`${dims.where} AND ${where}`) : NO_BUCKETS;
  const sketches = { where: dims.where, range: (hours && dimRange(start, end, true)) || NO_SKETCHES };
  const value = await measure(db, q, buckets, sketches, edges);
  return { value, source: "rollups" };
}

async function measure(
  db: Sql,
  q: MetricQuery,
  buckets: SqlFragment[],
  sketches: { where: SqlFragment; range: DimRange },
  edges: SqlFragment | null,
): Promise<number | null> {
  const p = PERCENTILE[q.metric];
  if (p) {
    const [bins] = await db.query<BinArrays>(sql`
      SELECT ${HISTOGRAM}
      FROM (${dimSketchRows([p.sketch], sketches.where, "none", sketches.range, edges)}) x`);
    const [v] = percentiles(histogram(bins), [p.q]);
    return v === null ? null : v * p.scale;
  }
  if (q.metric === "feedback_mean" || q.metric === "feedback_share") {
    const [row] = await db.query<{ n: number | null; hits: number | null; scores: number | null; sum: number | null }>(sql`
      SELECT sum(n)::float8 AS n, sum(n) FILTER (WHERE value = ${q.feedbackValue ?? ""})::float8 AS hits,
        sum(score_n)::float8 AS scores, sum(score_sum)::float8 AS sum
      FROM (${feedbackRows(buckets, edges)}) x WHERE key = ${q.feedbackKey ?? ""}`);
    if (q.metric === "feedback_mean") return row.scores ? Number(row.sum) / Number(row.scores) : null;
    return row.n ? Number(row.hits ?? 0) / Number(row.n) : null;
  }
  const cost = q.rootRunsOnly ? "trace_total_cost" : "total_cost";
  const [row] = await db.query<{ runs: number | null; errors: number | null; cost: number | null }>(sql`
    SELECT sum(runs)::float8 AS runs, sum(runs) FILTER (WHERE status = 'error')::float8 AS errors, sum(${raw(cost)})::float8 AS cost
    FROM (${countRows(buckets, edges)}) x`);
  const runs = Number(row.runs ?? 0);
  if (q.metric === "run_count") return runs;
  if (q.metric === "total_cost") return Number(row.cost ?? 0);
  return runs > 0 ? Number(row.errors ?? 0) / runs : null;
}

/**
 * The metric by a scan of the window's runs (the query path, any filter): the same definitions as
 * the rollups (a run with status "error" is an error; root runs count their trace's cost).
 */
async function fromScan(db: Sql, q: MetricQuery): Promise<Measured> {
  const where = sql`${runConditions(q.workspaceId, selection(q), "r")} AND r.start_time >= ${at(q.startMs)} AND r.start_time < ${at(q.endMs)}`;
  const p = PERCENTILE[q.metric];
  let value: number | null;
  if (p) {
    const expr = p.sketch === SKETCH.latency ? sql`r.latency_ms` : sql`EXTRACT(EPOCH FROM (r.first_token_time - r.start_time))`;
    const [row] = await db.query<{ v: number | null }>(sql`
      SELECT percentile_cont(${p.q}::float8) WITHIN GROUP (ORDER BY ${expr})::float8 AS v FROM runs r WHERE ${where}`);
    value = row.v === null ? null : Number(row.v) * p.scale;
  } else if (q.metric === "feedback_mean" || q.metric === "feedback_share") {
    const [row] = await db.query<{ n: number; hits: number; mean: number | null }>(sql`
      SELECT count(*)::float8 AS n, (count(*) FILTER (WHERE rollup_feedback_value(f.value) = ${q.feedbackValue ?? ""}))::float8 AS hits,
        avg(f.score)::float8 AS mean
      FROM runs r JOIN feedback f ON f.workspace_id = r.workspace_id AND f.run_id = r.id
      WHERE ${where} AND f.key = ${q.feedbackKey ?? ""}`);
    value = q.metric === "feedback_mean" ? row.mean : Number(row.n) > 0 ? Number(row.hits) / Number(row.n) : null;
  } else {
    const cost = q.rootRunsOnly ? sql`CASE WHEN r.is_root THEN coalesce(tt.total_cost, r.total_cost) END` : sql`r.total_cost`;
    const [row] = await db.query<{ runs: number; errors: number; cost: number | null }>(sql`
      SELECT count(*)::float8 AS runs, (count(*) FILTER (WHERE r.status = 'error'))::float8 AS errors, sum(${cost})::float8 AS cost
      FROM ${RUNS_WITH_TOTALS} WHERE ${where}`);
    const runs = Number(row.runs);
    value =
      q.metric === "run_count" ? runs : q.metric === "total_cost" ? Number(row.cost ?? 0) : runs > 0 ? Number(row.errors) / runs : null;
  }
  return { value, source: "scan" };
}

/** The metric over the window: from the rollups when they can answer the filter, else by the scan. */
export async function measureMetric(db: Sql, q: MetricQuery): Promise<Measured> {
  return (await fromRollups(db, q)) ?? fromScan(db, q);
}

/** Whether the rollups answer this rule's filter and metric (else each evaluation scans the window's runs). */
export function rollupsAnswer(q: Pick<MetricQuery, "workspaceId" | "projectId" | "filter" | "rootRunsOnly" | "metric">): boolean {
  const dims = rollupConditions(q.workspaceId, selection(q as MetricQuery), "b");
  if (!dims) return false;
  return dims.reach === "all" || !(q.metric in PERCENTILE || q.metric.startsWith("feedback_"));
}
