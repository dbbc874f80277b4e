import { z } from "zod";
import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { badRequest, notFound } from "../core/errors";
import { formatMicros, parseInstant } from "../core/time";
import { runConditions } from "../runs/conditions";
import { bucketSeconds, bucketStarts } from "./buckets";
import { GROUP_ATTRIBUTES, type ChartQuery, type GroupBy, type Metric } from "./schema";
import type { RunSelection } from "../runs/selection";
import { rollupChartRows, type ChartRow, type ChartRows, type ChartWindow } from "./rollup-rows";

/** One line of a chart: a metric (of a group, when grouped), one value per bucket. */
export const wireSeries = z.object({
  metric: z.string(),
  /** The group's value (a model, a tag, ...); null when the chart is not grouped. */
  group: z.string().nullable(),
  /** One value per bucket, aligned with `buckets`; null where the bucket had no runs. */
  values: z.array(z.number().nullable()),
});
export type Series = z.infer<typeof wireSeries>;

/** A chart as `POST /charts` answers it. */
export const wireChart = z.object({
  start_time: z.string(),
  end_time: z.string(),
  bucket_seconds: z.number(),
  buckets: z.array(z.string()),
  group_by: z.object({ attribute: z.enum(GROUP_ATTRIBUTES), path: z.string().nullish() }).nullable(),
  series: z.array(wireSeries),
});
export type Chart = z.infer<typeof wireChart>;

const NONE = "(none)";
/** Sums and counts are 0 in an empty bucket; percentiles and rates have no value there. */
const ZERO_WHEN_EMPTY = new Set<string>([
  "run_count",
  "error_count",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_cost",
  "completion_cost",
  "total_cost",
]);
const DEFAULT_RANGE_MS = 7 * 86_400_000;

const AGGREGATES: Record<Exclude<Metric, "feedback">, SqlFragment> = {
  run_count: sql`count(*)::float8`,
  error_count: sql`(count(*) FILTER (WHERE r.error IS NOT NULL))::float8`,
  error_rate: sql`avg((r.error IS NOT NULL)::int)::float8`,
  latency_p50: sql`(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_ms) / 1000)::float8`,
  latency_p99: sql`(percentile_cont(0.99) WITHIN GROUP (ORDER BY r.latency_ms) / 1000)::float8`,
  first_token_p50: sql`percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (r.first_token_time - r.start_time)))::float8`,
  first_token_p99: sql`percentile_cont(0.99) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (r.first_token_time - r.start_time)))::float8`,
  prompt_tokens: sql`coalesce(sum(r.prompt_tokens), 0)::float8`,
  completion_tokens: sql`coalesce(sum(r.completion_tokens), 0)::float8`,
  total_tokens: sql`coalesce(sum(r.total_tokens), 0)::float8`,
  prompt_cost: sql`coalesce(sum(r.prompt_cost), 0)::float8`,
  completion_cost: sql`coalesce(sum(r.completion_cost), 0)::float8`,
  total_cost: sql`coalesce(sum(r.total_cost), 0)::float8`,
};

/** FROM clause and group expression; a run with several tags counts once under each. */
function grouping(group: GroupBy | null | undefined): { from: SqlFragment; label: SqlFragment } {
  if (!group) return { from: sql`runs r`, label: sql`NULL::text` };
  switch (group.attribute) {
    case "tag":
      return {
        from: sql`runs r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.tags) = 0 THEN ARRAY[NULL::text] ELSE r.tags END) AS g(tag)`,
        label: sql`coalesce(g.tag, ${NONE})`,
      };
    case "metadata":
      return { from: sql`runs r`, label: sql`coalesce(r.extra->'metadata'->>${group.path!}, ${NONE})` };
    case "model":
      return { from: sql`runs r`, label: sql`coalesce(r.model, ${NONE})` };
    case "provider":
      return { from: sql`runs r`, label: sql`coalesce(r.provider, ${NONE})` };
    case "name":
      return { from: sql`runs r`, label: sql`r.name` };
    case "run_type":
      return { from: sql`runs r`, label: sql`r.run_type` };
    case "status":
      return { from: sql`runs r`, label: sql`r.status` };
  }
}

function instant(value: string | number | null | undefined, fallback: number, field: string): number {
  if (value === null || value === undefined) return fallback;
  const micros = parseInstant(value);
  if (micros === null) throw badRequest(`Invalid ${field}: ${JSON.stringify(value)} is not an ISO-8601 time or epoch milliseconds.`);
  return Number(micros / 1000n);
}

/**
 * Time-bucketed series of run metrics for the selected runs of the workspace, optionally one
 * series per group (the busiest `maxGroups` groups by run count).
 */
export async function chartSeries(db: Sql, workspaceId: string, request: ChartQuery): Promise<Chart> {
  const endMs = instant(request.endTime, Date.now(), "end_time");
  const startMs = instant(request.startTime, endMs - DEFAULT_RANGE_MS, "start_time");
  if (startMs >= endMs) throw badRequest("start_time must be before end_time.");
  const seconds = bucketSeconds((endMs - startMs) / 1000, request.bucket);
  const starts = bucketStarts(startMs, endMs, seconds);
  const { selection } = request;
  const window = { startMs, endMs, seconds };
  const { rows, feedback: feedbackRows } =
    (await rollupChartRows(db, workspaceId, selection, request.metrics, request.groupBy, window)) ??
    (await scanChartRows(db, workspaceId, selection, request, window));
  const runMetrics = request.metrics.filter((m): m is Exclude<Metric, "feedback"> => m !== "feedback");

  let groups: string[] | null = null;
  if (request.groupBy) {
    const totals = new Map<string, number>();
    for (const row of rows) totals.set(row.label!, (totals.get(row.label!) ?? 0) + row.runs);
    groups = [...totals]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, request.maxGroups ?? 10)
      .map(([g]) => g);
  }
  const shown = groups ? new Set<string | null>(groups) : null;
  const index = new Map(starts.map((t, i) => [t, i]));
  const series = new Map<string, Series>();
  const ensure = (metric: string, group: string | null): Series => {
    const key = JSON.stringify([metric, group]);
    let s = series.get(key);
    if (!s) series.set(key, (s = { metric, group, values: starts.map(() => (ZERO_WHEN_EMPTY.has(metric) ? 0 : null)) }));
    return s;
  };
  const put = (metric: string, group: string | null, bucketMs: number, value: number | null) => {
    if (shown && !shown.has(group)) return;
    const s = ensure(metric, group);
    const i = index.get(bucketMs);
    if (i !== undefined) s.values[i] = value === null ? null : Number(value);
  };
  for (const m of runMetrics) for (const g of groups ?? [null]) ensure(m, g);
  for (const row of rows) for (const m of runMetrics) put(m, row.label, row.bucket * 1000, row[m]);
  for (const row of feedbackRows) put(`feedback:${row.key}`, row.label, row.bucket * 1000, row.avg);

  const order = (s: Series) => [
    request.metrics.indexOf(s.metric.startsWith("feedback:") ? "feedback" : (s.metric as Metric)),
    groups ? groups.indexOf(s.group!) : 0,
  ];
  return {
    start_time: formatMicros(BigInt(startMs) * 1000n),
    end_time: formatMicros(BigInt(endMs) * 1000n),
    bucket_seconds: seconds,
    buckets: starts.map((t) => formatMicros(BigInt(t) * 1000n)),
    group_by: request.groupBy ?? null,
    series: [...series.values()].sort((a, b) => {
      const [ma, ga] = order(a);
      const [mb, gb] = order(b);
      return ma - mb || ga - gb || a.metric.localeCompare(b.metric);
    }),
  };
}

/** A chart's rows by a scan of the runs in the window: any filter and grouping. */
export async function scanChartRows(
  db: Sql,
  workspaceId: string,
  selection: RunSelection,
  request: Pick<ChartQuery, "metrics" | "groupBy">,
  { startMs, endMs, seconds }: ChartWindow,
): Promise<ChartRows> {
  const where = sql`${runConditions(workspaceId, selection, "r")}
    AND r.start_time >= ${formatMicros(BigInt(startMs) * 1000n)}::timestamptz AND r.start_time < ${formatMicros(BigInt(endMs) * 1000n)}::timestamptz`;
  const { from, label } = grouping(request.groupBy);
  const bucketExpr = sql`(floor(EXTRACT(EPOCH FROM r.start_time) / ${seconds}) * ${seconds})::float8`;
  const runMetrics = request.metrics.filter((m): m is Exclude<Metric, "feedback"> => m !== "feedback");
  // One pass over the runs: every group's buckets come back with their run count, and the busiest
  // groups are chosen from those counts (a separate ranking query would scan the runs twice).
  const columns = runMetrics.map((m) => sql`, ${AGGREGATES[m]} AS ${raw(`"${m}"`)}`);
  const [rows, feedback] = await Promise.all([
    db.query<ChartRow>(sql`
      SELECT ${bucketExpr} AS bucket, ${label} AS label, count(*)::int AS runs${columns.length ? columns.reduce((acc, c) => sql`${acc}${c}`) : sql``}
      FROM ${from} WHERE ${where} GROUP BY 1, 2`),
    request.metrics.includes("feedback")
      ? db.query<ChartRows["feedback"][number]>(sql`
        SELECT ${bucketExpr} AS bucket, ${label} AS label, f.key, avg(f.score)::float8 AS avg
        FROM ${from} JOIN feedback f ON f.workspace_id = r.workspace_id AND f.run_id = r.id
        WHERE ${where} AND f.score IS NOT NULL GROUP BY 1, 2, 3`)
      : Promise.resolve([]),
  ]);
  return { rows, feedback };
}

/** POST /sessions/{id}/charts: the chart scoped to one project of the workspace (404 if it is not there). */
export async function projectChartSeries(db: Sql, workspaceId: string, projectId: string, request: ChartQuery): Promise<Chart> {
  await projectOrNotFound(db, workspaceId, projectId);
  return chartSeries(db, workspaceId, { ...request, selection: { ...request.selection, projectIds: [projectId] } });
}

/** A project of the workspace, or a 404. */
export async function projectOrNotFound(db: Sql, workspaceId: string, projectId: string): Promise<void> {
  const found = /^[0-9a-f-]{36}$/i.test(projectId)
    ? await db.query(sql`SELECT 1 FROM projects WHERE workspace_id = ${workspaceId} AND id = ${projectId}`)
    : [];
  if (found.length === 0) throw notFound(`Project (session) ${projectId} not found.`);
}
