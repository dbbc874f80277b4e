import { join, raw, sql, type SqlFragment } from "../../db/sql";
import type { Dim, DimRange } from "./scope";

/**
 * The measures of run_buckets, each with what one run adds to it (runs aliased `r`, its trace's
 * totals `tt`), for the partial hours read from the runs. The triggers of migration
 * 20261126000400_rollups compute the same; the property test holds the two to each other.
 */
const ROOT = (expr: string) => `CASE WHEN r.is_root THEN ${expr} END`;
const TRACE = (column: string) => ROOT(`coalesce(tt.${column}, r.${column})`);
const PER_RUN: Record<string, string> = {
  runs: "1",
  streaming_runs: "(r.first_token_time IS NOT NULL)::int",
  prompt_tokens: "coalesce(r.prompt_tokens, 0)",
  completion_tokens: "coalesce(r.completion_tokens, 0)",
  total_tokens: "coalesce(r.total_tokens, 0)",
  prompt_cost: "coalesce(r.prompt_cost, 0)",
  completion_cost: "coalesce(r.completion_cost, 0)",
  total_cost: "coalesce(r.total_cost, 0)",
  prompt_cost_runs: "(r.prompt_cost IS NOT NULL)::int",
  completion_cost_runs: "(r.completion_cost IS NOT NULL)::int",
  total_cost_runs: "(r.total_cost IS NOT NULL)::int",
  trace_prompt_tokens: `coalesce(${TRACE("prompt_tokens")}, 0)`,
  trace_completion_tokens: `coalesce(${TRACE("completion_tokens")}, 0)`,
  trace_total_tokens: `coalesce(${TRACE("total_tokens")}, 0)`,
  trace_prompt_cost: `coalesce(${TRACE("prompt_cost")}, 0)`,
  trace_completion_cost: `coalesce(${TRACE("completion_cost")}, 0)`,
  trace_total_cost: `coalesce(${TRACE("total_cost")}, 0)`,
  trace_prompt_cost_runs: `(${TRACE("prompt_cost")} IS NOT NULL)::int`,
  trace_completion_cost_runs: `(${TRACE("completion_cost")} IS NOT NULL)::int`,
  trace_total_cost_runs: `(${TRACE("total_cost")} IS NOT NULL)::int`,
};
const MEASURES = Object.keys(PER_RUN);

/** The dimensions every rollup row carries, by name (run_buckets adds name, model, provider). */
const DIMS = ["project_id", "run_type", "is_root", "status"];
const COUNT_DIMS = [...DIMS, "name", "model", "provider"];

/** Runs `r` joined to their trace's totals `tt` (root runs only). */
export const RUNS_WITH_TOTALS = sql`runs r LEFT JOIN trace_totals tt ON r.is_root AND tt.workspace_id = r.workspace_id AND tt.trace_id = r.trace_id`;

/** The union of a rollup table's rows matching any of `buckets` (conditions over alias b, disjoint). */
const rowsOf = (table: string, columns: string, buckets: SqlFragment[]) =>
  join(
    buckets.map((where) => sql`SELECT b.bucket_start AS t, ${raw(columns)} FROM ${raw(table)} b WHERE ${where}`),
    " UNION ALL ",
  );

/**
 * run_buckets rows matching `buckets`, and the runs matching `edges` as rows of the same shape:
 * `t` (the hour, or the run's start), the dimensions and the measures.
 */
export function countRows(buckets: SqlFragment[], edges: SqlFragment | null): SqlFragment {
  const fromBuckets = rowsOf("run_buckets", [...COUNT_DIMS, ...MEASURES].map((c) => `b.${c}`).join(", "), buckets);
  if (!edges) return fromBuckets;
  const perRun = MEASURES.map((c) => `${PER_RUN[c]} AS ${c}`).join(", ");
  return sql`${fromBuckets} UNION ALL SELECT r.start_time, ${raw(COUNT_DIMS.map((c) => `r.${c}`).join(", "))}, ${raw(perRun)}
    FROM ${RUNS_WITH_TOTALS} WHERE ${edges}`;
}

/** The sketch metrics, by their code in run_sketches. */
export const SKETCH = { latency: 1, firstToken: 2, tokens: 3, cost: 4, traceTokens: 5, traceCost: 6 } as const;
const SKETCH_VALUE: Record<number, string> = {
  1: "r.latency_ms",
  2: "EXTRACT(EPOCH FROM (r.first_token_time - r.start_time))::float8",
  3: "r.total_tokens::float8",
  4: "r.total_cost::float8",
  5: `${TRACE("total_tokens")}::float8`,
  6: `${TRACE("total_cost")}::float8`,
};

/** feedback_buckets rows matching `buckets`, and the feedback on runs matching `edges` alike. */
export function feedbackRows(buckets: SqlFragment[], edges: SqlFragment | null): SqlFragment {
  const fromBuckets = rowsOf(
    "feedback_buckets",
    `${DIMS.map((c) => `b.${c}`).join(", ")}, b.key, b.value, b.n, b.score_n, b.score_sum, b.score_sq`,
    buckets,
  );
  if (!edges) return fromBuckets;
  return sql`${fromBuckets} UNION ALL SELECT r.start_time, ${raw(DIMS.map((c) => `r.${c}`).join(", "))}, f.key,
      rollup_feedback_value(f.value), 1, (f.score IS NOT NULL)::int,
      coalesce(f.score, 0), coalesce(f.score * f.score, 0)
    FROM runs r JOIN feedback f ON f.workspace_id = r.workspace_id AND f.run_id = r.id WHERE ${edges}`;
}

const DIM_COLUMNS = [...DIMS, "name", "model", "provider"];

/** Sketch rows' bins and counts as one histogram per group, unsummed (sketch.ts' BinArrays, for histogram()). */
export const HISTOGRAM = raw("array_agg(bin) AS bins, array_agg(n::float8) AS ns");

/**
 * Rows from the single-dimension rollups for a selection whose filter names `dim` (and nothing else
 * beyond the shared dimensions), or names none of name, model and provider (`dim` "none": the
 * sketches of the whole selection): the merged rows of that dimension in `range`, the delta rows
 * (which carry name, model and provider) and the runs at the edges. `where` is the selection over
 * alias b (rollupConditions): in a row of `dim` that column holds the run's value, so the filter
 * compiled for runs applies as it is. Rows: t, the dimensions, name, model, provider, …
 * Feedback of the whole selection is read from feedback_buckets (feedbackRows).
 */
export function dimSketchRows(
  metrics: number[],
  where: SqlFragment,
  dim: Dim | "none",
  range: DimRange,
  edges: SqlFragment | null,
): SqlFragment {
  const columns = raw(`${DIM_COLUMNS.map((c) => `b.${c}`).join(", ")}, b.metric, b.bin, b.n`);
  const metric = sql`b.metric = ANY(${metrics}::smallint[])`;
  const merged = range
    .merged("b")
    .map(
      (span) =>
        sql`SELECT b.bucket_start AS t, ${columns} FROM run_dim_sketches b WHERE ${where} AND b.dim = ${dim} AND ${span} AND ${metric} UNION ALL `,
    );
  const rows = sql`${join(merged, "")}SELECT b.bucket_start, ${columns} FROM run_sketches b WHERE ${where} AND ${range.deltas("b")} AND ${metric}`;
  if (!edges) return rows;
  const values = join(metrics.map((m) => raw(`(${m}::smallint, ${SKETCH_VALUE[m]})`)));
  return sql`${rows} UNION ALL SELECT r.start_time, ${raw(DIM_COLUMNS.map((c) => `r.${c}`).join(", "))}, m.metric, rollup_bin(m.x), 1
    FROM ${RUNS_WITH_TOTALS} CROSS JOIN LATERAL (VALUES ${values}) m(metric, x) WHERE ${edges} AND m.x IS NOT NULL`;
}

export function dimFeedbackRows(where: SqlFragment, dim: Dim, range: DimRange, edges: SqlFragment | null): SqlFragment {
  const columns = raw(`${DIM_COLUMNS.map((c) => `b.${c}`).join(", ")}, b.key, b.value, b.n, b.score_n, b.score_sum, b.score_sq`);
  const merged = range
    .merged("b")
    .map(
      (span) =>
        sql`SELECT b.bucket_start AS t, ${columns} FROM feedback_dim_buckets b WHERE ${where} AND b.dim = ${dim} AND ${span} UNION ALL `,
    );
  const rows = sql`${join(merged, "")}SELECT b.bucket_start, ${columns} FROM feedback_buckets b WHERE ${where} AND ${range.deltas("b")}`;
  if (!edges) return rows;
  return sql`${rows} UNION ALL SELECT r.start_time, ${raw(DIM_COLUMNS.map((c) => `r.${c}`).join(", "))}, f.key,
      rollup_feedback_value(f.value), 1, (f.score IS NOT NULL)::int,
      coalesce(f.score, 0), coalesce(f.score * f.score, 0)
    FROM runs r JOIN feedback f ON f.workspace_id = r.workspace_id AND f.run_id = r.id WHERE ${edges}`;
}
