import type { Sql } from "../../db/client";
import { raw, sql, type SqlFragment } from "../../db/sql";
import { isoFromDb } from "../../core/time";
import { runConditions } from "../conditions";
import type { RunSelection } from "../selection";
import type { FeedbackKeyStats, RunStats } from "../stats";
import { countRows, dimFeedbackRows, dimSketchRows, feedbackRows, HISTOGRAM, SKETCH } from "./measures";
import { dimRange, filterDim, hourRange, rollupConditions, selectionRange, type Dim, type DimRange } from "./scope";
import { EMPTY, histogram, percentiles, type BinArrays } from "./sketch";

/** Where a statistic reads: the rollup rows (`buckets`, alias b) and the runs at the edges (alias r). */
interface Source {
  buckets: SqlFragment[];
  edges: SqlFragment | null;
  /** The runs the whole selection matches, for the last start time. */
  runs: SqlFragment;
  /** The selection's dimensions over a rollup table (alias b), whatever the time. */
  dims: SqlFragment;
  /** The hourly rollup rows of the selection (alias b), for the latest hour with runs. */
  hourly: SqlFragment;
  /** Root runs count their trace's tokens and costs. */
  traceTotals: boolean;
  byProject: boolean;
  /**
   * Sketches come from the single-dimension rollups over `range` (whole days from day rows): of the
   * dimension the filter names (the run's name, model or provider), whose feedback comes from them
   * too, or of none. Counts come from run_buckets as ever.
   */
  sketches: { dim: Dim | "none"; range: DimRange };
}

/** The selection's source in the rollups, or null when only a scan of the runs can answer it. */
export function statsSource(workspaceId: string, selection: RunSelection, byProject = false): Source | null {
  const dims = rollupConditions(workspaceId, selection, "b");
  const range = selectionRange(selection);
  if (!dims || !range) return null;
  const hours = hourRange(range.start, range.end);
  if (!hours) return null;
  // Filters on name, model or provider ("counts") read that dimension's sketches, if they name one.
  const named = dims.reach === "all" ? "none" : filterDim(selection);
  const dayRange = dimRange(range.start, range.end, true);
  if (!named || !dayRange) return null;
  const sketches: Source["sketches"] = { dim: named, range: dayRange };
  const runs = runConditions(workspaceId, selection, "r");
  const edges = hours.edges("r");
  return {
    buckets: hours.buckets("b").map((where) => sql`${dims.where} AND ${where}`),
    edges: edges && sql`${runs} AND ${edges}`,
    runs,
    dims: dims.where,
    hourly: sql`${dims.where} AND ${range.start === null && range.end === null ? sql`b.bucket_start > '-infinity'` : hours.buckets("b")[0]}`,
    traceTotals: selection.isRoot === true,
    byProject,
    sketches,
  };
}

type Keyed<T> = Map<string | null, T>;

/**
 * POST /runs/stats from the rollups (see statsSource), per project when `byProject`: the same
 * numbers as the scan of server/runs/stats.ts, percentiles within the sketch's 1 %.
 */
export async function rollupStats(db: Sql, source: Source): Promise<Keyed<RunStats>> {
  const key = source.byProject ? raw("project_id") : raw("NULL::uuid");
  const t = source.traceTotals ? "trace_" : "";
  const metrics = [
    SKETCH.latency,
    SKETCH.firstToken,
    source.traceTotals ? SKETCH.traceTokens : SKETCH.tokens,
    source.traceTotals ? SKETCH.traceCost : SKETCH.cost,
  ];
  const [counts, bins, feedback, last] = await Promise.all([
    db.query<Record<string, unknown> & { k: string | null }>(sql`
      SELECT ${key} AS k, sum(runs)::float8 AS runs, coalesce(sum(runs) FILTER (WHERE status = 'error'), 0)::float8 AS errors,
        sum(runs) FILTER (WHERE run_type = 'llm')::float8 AS llm_runs, sum(streaming_runs) FILTER (WHERE run_type = 'llm')::float8 AS streaming,
        ${raw(
          ["prompt_tokens", "completion_tokens", "total_tokens", "prompt_cost", "completion_cost", "total_cost"]
            .map((c) => `sum(${t}${c})::float8 AS ${c}`)
            .join(", "),
        )},
        ${raw(["prompt_cost", "completion_cost", "total_cost"].map((c) => `sum(${t}${c}_runs)::float8 AS ${c}_runs`).join(", "))}
      FROM (${countRows(source.buckets, source.edges)}) x GROUP BY 1`),
    db.query<{ k: string | null; metric: number } & BinArrays>(sql`
      SELECT ${key} AS k, metric, ${HISTOGRAM}
      FROM (${dimSketchRows(metrics, source.dims, source.sketches.dim, source.sketches.range, source.edges)}) x GROUP BY 1, 2`),
    db.query<{ k: string | null; key: string; value: string | null; n: number; score_n: number; score_sum: number; score_sq: number }>(sql`
      SELECT ${key} AS k, key, value, sum(n)::float8 AS n, sum(score_n)::float8 AS score_n, sum(score_sum)::float8 AS score_sum,
        sum(score_sq)::float8 AS score_sq
      FROM (${
        source.sketches.dim !== "none"
          ? dimFeedbackRows(source.dims, source.sketches.dim, source.sketches.range, source.edges)
          : feedbackRows(source.buckets, source.edges)
      }) x GROUP BY 1, 2, 3 HAVING sum(n) <> 0`),
    lastStarts(db, source, key),
  ]);
  const histograms = new Map(bins.map((b) => [JSON.stringify([b.k, b.metric]), histogram(b)]));
  const out: Keyed<RunStats> = new Map();
  for (const row of counts) {
    const runs = Number(row.runs);
    if (runs === 0) continue;
    const cost = (c: string) => (Number(row[`${c}_runs`]) > 0 ? Number(row[c]) : null);
    const sketch = (metric: number, qs: number[]) => percentiles(histograms.get(JSON.stringify([row.k, metric])) ?? EMPTY, qs);
    const [latency50, latency99] = sketch(SKETCH.latency, [0.5, 0.99]);
    const [first50, first99] = sketch(SKETCH.firstToken, [0.5, 0.99]);
    const [tokens50, tokens99] = sketch(metrics[2], [0.5, 0.99]);
    const [cost50, cost99] = sketch(metrics[3], [0.5, 0.99]);
    const llm = Number(row.llm_runs ?? 0);
    out.set(row.k, {
      run_count: runs,
      error_rate: Number(row.errors) / runs,
      latency_p50: latency50 === null ? null : latency50 / 1000,
      latency_p99: latency99 === null ? null : latency99 / 1000,
      first_token_p50: first50,
      first_token_p99: first99,
      prompt_tokens: Number(row.prompt_tokens),
      completion_tokens: Number(row.completion_tokens),
      total_tokens: Number(row.total_tokens),
      median_tokens: tokens50,
      tokens_p99: tokens99,
      prompt_cost: cost("prompt_cost"),
      completion_cost: cost("completion_cost"),
      total_cost: cost("total_cost"),
      cost_p50: cost50,
      cost_p99: cost99,
      streaming_rate: llm > 0 ? Number(row.streaming) / llm : null,
      last_run_start_time: last.get(row.k) ?? null,
      feedback_stats: feedbackStats(feedback.filter((f) => f.k === row.k)),
      run_facets: [],
    });
  }
  return out;
}

function feedbackStats(
  rows: { key: string; value: string | null; n: number; score_n: number; score_sum: number; score_sq: number }[],
): Record<string, FeedbackKeyStats> {
  const out: Record<string, FeedbackKeyStats> = {};
  const sums = new Map<string, { n: number; scores: number; sum: number; sq: number }>();
  for (const row of rows) {
    const s = sums.get(row.key) ?? { n: 0, scores: 0, sum: 0, sq: 0 };
    s.n += row.n;
    s.scores += row.score_n;
    s.sum += row.score_sum;
    s.sq += row.score_sq;
    sums.set(row.key, s);
  }
  for (const [key, s] of sums) {
    const avg = s.scores > 0 ? s.sum / s.scores : null;
    out[key] = { n: s.n, avg, stdev: avg === null ? null : Math.sqrt(Math.max(0, s.sq / s.scores - avg * avg)), values: {} };
  }
  for (const row of rows) if (row.value !== null) out[row.key].values[row.value] = row.n;
  return out;
}

/**
 * The latest start per key: per project, read from the runs from the latest hour its buckets hold
 * runs in (found walking its hours backwards), so it costs at most an hour of runs per project.
 */
async function lastStarts(db: Sql, source: Source, key: SqlFragment): Promise<Keyed<string | null>> {
  const rows = await db.query<{ k: string | null; last: unknown }>(sql`
    WITH p AS (
      SELECT b.project_id FROM run_buckets b WHERE ${source.dims} AND b.bucket_start = '-infinity'
      UNION SELECT b.project_id FROM run_buckets b WHERE ${source.dims} AND NOT b.merged),
    latest AS (
      SELECT p.project_id, (SELECT b.bucket_start FROM run_buckets b WHERE ${source.hourly} AND b.project_id = p.project_id
        GROUP BY b.bucket_start HAVING sum(b.runs) > 0 ORDER BY b.bucket_start DESC LIMIT 1) AS t
      FROM p)
    SELECT ${key} AS k,
      max((SELECT max(r.start_time) FROM runs r WHERE ${source.runs} AND r.project_id = latest.project_id AND r.start_time >= latest.t)) AS last
    FROM latest WHERE t IS NOT NULL GROUP BY 1`);
  const out: Keyed<string | null> = new Map(rows.map((r) => [r.k, isoFromDb(r.last)]));
  if (out.size === 0) {
    const [row] = await db.query<{ last: unknown }>(sql`SELECT max(r.start_time) AS last FROM runs r WHERE ${source.runs}`);
    if (row.last !== null && !source.byProject) out.set(null, isoFromDb(row.last));
  }
  return out;
}
