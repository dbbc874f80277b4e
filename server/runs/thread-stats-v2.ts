import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { instant } from "../core/instant";
import { uuid } from "../core/uuid";
import type { SelectedRun } from "./serialize";
import { feedbackStatsOver, runStats } from "./stats";
import { groupThreads } from "./threads";
import { DAY_MS, filterText, many, MAX_TURNS, readTurns } from "./threads-v2";

const THREAD_STATS = [
  "TURNS",
  "FIRST_START_TIME",
  "LAST_START_TIME",
  "LAST_END_TIME",
  "LATENCY_P50",
  "LATENCY_P99",
  "PROMPT_TOKENS",
  "PROMPT_COST",
  "COMPLETION_TOKENS",
  "COMPLETION_COST",
  "TOTAL_TOKENS",
  "TOTAL_COST",
  "PROMPT_TOKEN_DETAILS",
  "COMPLETION_TOKEN_DETAILS",
  "PROMPT_COST_DETAILS",
  "COMPLETION_COST_DETAILS",
  "FEEDBACK_STATS",
] as const;

/** GET /api/v2/threads/{id}/stats (the client's `threads.stats`). */
export const threadStatsQuery = z.looseObject({
  session_id: uuid,
  selects: many(z.enum(THREAD_STATS)),
  filter: filterText,
});

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.ceil(at)] - sorted[lo]) * (at - lo);
};
const sum = (runs: SelectedRun[], pick: (r: SelectedRun) => number | null | undefined) => runs.reduce((n, r) => n + (pick(r) ?? 0), 0);

const seconds = z.number().nullable();
const time = z.string().nullable();

/** One thread's totals, the fields selected (`client.threads.stats`). */
export const wireThreadStats = z
  .object({
    turns: z.number(),
    first_start_time: time,
    last_start_time: time,
    last_end_time: time,
    latency_p50_seconds: seconds,
    latency_p99_seconds: seconds,
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
    total_tokens: z.number(),
    prompt_cost: z.number(),
    completion_cost: z.number(),
    total_cost: z.number(),
    feedback_stats: z.record(z.string(), z.unknown()),
  })
  .partial();
type ThreadStats = z.infer<typeof wireThreadStats>;

/** One thread's totals over its turns (each trace's tokens and cost, its root's latency), the fields selected. */
export async function threadStatsV2(
  db: Sql,
  workspaceId: string,
  threadId: string,
  q: z.infer<typeof threadStatsQuery>,
): Promise<ThreadStats> {
  const turns = await readTurns(db, workspaceId, q.session_id, threadId, q.filter, MAX_TURNS);
  const traceIds = turns.map((r) => r.trace_id);
  const times = (pick: (r: SelectedRun) => string | null | undefined) =>
    turns
      .map(pick)
      .filter((t): t is string => !!t)
      .sort();
  const latencies = turns.map((r) => r.latency).filter((l): l is number => typeof l === "number");
  const all: Required<ThreadStats> = {
    turns: turns.length,
    first_start_time: times((r) => r.start_time)[0] ?? null,
    last_start_time: times((r) => r.start_time).at(-1) ?? null,
    last_end_time: times((r) => r.end_time).at(-1) ?? null,
    latency_p50_seconds: percentile(latencies, 0.5),
    latency_p99_seconds: percentile(latencies, 0.99),
    prompt_tokens: sum(turns, (r) => r.prompt_tokens),
    completion_tokens: sum(turns, (r) => r.completion_tokens),
    total_tokens: sum(turns, (r) => r.total_tokens),
    prompt_cost: sum(turns, (r) => r.prompt_cost),
    completion_cost: sum(turns, (r) => r.completion_cost),
    total_cost: sum(turns, (r) => r.total_cost),
    feedback_stats: turns.length
      ? await feedbackStatsOver(
          db,
          workspaceId,
          sql`SELECT x.id FROM runs x WHERE x.workspace_id = ${workspaceId} AND x.trace_id = ANY(${traceIds}::uuid[])`,
        )
      : {},
  };
  const wanted: Record<(typeof THREAD_STATS)[number], keyof ThreadStats | null> = {
    TURNS: "turns",
    FIRST_START_TIME: "first_start_time",
    LAST_START_TIME: "last_start_time",
    LAST_END_TIME: "last_end_time",
    LATENCY_P50: "latency_p50_seconds",
    LATENCY_P99: "latency_p99_seconds",
    PROMPT_TOKENS: "prompt_tokens",
    PROMPT_COST: "prompt_cost",
    COMPLETION_TOKENS: "completion_tokens",
    COMPLETION_COST: "completion_cost",
    TOTAL_TOKENS: "total_tokens",
    TOTAL_COST: "total_cost",
    PROMPT_TOKEN_DETAILS: null,
    COMPLETION_TOKEN_DETAILS: null,
    PROMPT_COST_DETAILS: null,
    COMPLETION_COST_DETAILS: null,
    FEEDBACK_STATS: "feedback_stats",
  };
  const keys = q.selects.length ? q.selects : THREAD_STATS;
  return Object.fromEntries(keys.flatMap((s) => (wanted[s] ? [[wanted[s], all[wanted[s]]]] : [])));
}

const AGGREGATES = [
  "THREAD_COUNT",
  "TRACE_COUNT",
  "TOTAL_TOKENS",
  "TOTAL_COST",
  "ERROR_RATE",
  "STREAMING_RATE",
  "LATENCY_P50",
  "LATENCY_P99",
  "MEDIAN_TOKENS",
  "FIRST_TOKEN_P50",
  "FIRST_TOKEN_P99",
  "PROMPT_TOKENS",
  "COMPLETION_TOKENS",
  "PROMPT_COST",
  "COMPLETION_COST",
  "PROMPT_TOKEN_DETAILS",
  "COMPLETION_TOKEN_DETAILS",
  "PROMPT_COST_DETAILS",
  "COMPLETION_COST_DETAILS",
  "THREAD_FEEDBACK_STATS",
] as const;

/** POST /api/v2/threads/stats (the client's `threads.aggregateStats`). */
export const threadAggregateQuery = z.looseObject({
  project_id: uuid,
  select: z.array(z.enum(AGGREGATES)).min(1),
  filter: z.string().max(10_000).nullish(),
  trace_filter: z.string().max(10_000).nullish(),
  tree_filter: z.string().max(10_000).nullish(),
  min_start_time: instant.nullish(),
  max_start_time: instant.nullish(),
});

const count = z.number().nullable();

/** Statistics over a project's threads, the aggregates selected (`client.threads.aggregateStats`). */
export const wireThreadAggregates = z
  .object({
    thread_count: count,
    trace_count: count,
    total_tokens: count,
    total_cost: count,
    error_rate: count,
    streaming_rate: count,
    latency_p50_seconds: seconds,
    latency_p99_seconds: seconds,
    median_tokens: count,
    first_token_p50_seconds: seconds,
    first_token_p99_seconds: seconds,
    prompt_tokens: count,
    completion_tokens: count,
    prompt_cost: count,
    completion_cost: count,
    prompt_token_details: z.null(),
    completion_token_details: z.null(),
    prompt_cost_details: z.null(),
    completion_cost_details: z.null(),
    thread_feedback_stats: z.record(z.string(), z.unknown()).nullable(),
  })
  .partial();

/**
 * Statistics over the project's threads in the window (a day by default): their traces (roots
 * that belong to a thread, with each trace's tokens and cost), and how many threads there are.
 */
export async function threadAggregateStats(
  db: Sql,
  workspaceId: string,
  q: z.infer<typeof threadAggregateQuery>,
): Promise<z.infer<typeof wireThreadAggregates>> {
  const start = (q.min_start_time ?? new Date(Date.now() - DAY_MS)).toISOString();
  const end = (q.max_start_time ?? new Date()).toISOString();
  // The runs that belong to a thread.
  const inThread = "neq(thread_id, null)";
  const [stats, threads] = await Promise.all([
    runStats(db, workspaceId, {
      projectIds: [q.project_id],
      isRoot: true,
      startTime: start,
      endTime: end,
      filter: [inThread, q.filter, q.trace_filter].filter(Boolean).reduce((a, b) => `and(${a}, ${b})`) ?? undefined,
      treeFilter: q.tree_filter ?? undefined,
    }),
    groupThreads(db, workspaceId, { projectId: q.project_id, filter: q.filter ?? undefined, startTime: start, endTime: end, limit: 1 }),
  ]);
  const all: Record<(typeof AGGREGATES)[number], unknown> = {
    THREAD_COUNT: threads.total,
    TRACE_COUNT: stats.run_count,
    TOTAL_TOKENS: stats.total_tokens,
    TOTAL_COST: stats.total_cost,
    ERROR_RATE: stats.error_rate,
    STREAMING_RATE: stats.streaming_rate,
    LATENCY_P50: stats.latency_p50,
    LATENCY_P99: stats.latency_p99,
    MEDIAN_TOKENS: stats.median_tokens,
    FIRST_TOKEN_P50: stats.first_token_p50,
    FIRST_TOKEN_P99: stats.first_token_p99,
    PROMPT_TOKENS: stats.prompt_tokens,
    COMPLETION_TOKENS: stats.completion_tokens,
    PROMPT_COST: stats.prompt_cost,
    COMPLETION_COST: stats.completion_cost,
    PROMPT_TOKEN_DETAILS: null,
    COMPLETION_TOKEN_DETAILS: null,
    PROMPT_COST_DETAILS: null,
    COMPLETION_COST_DETAILS: null,
    THREAD_FEEDBACK_STATS: stats.feedback_stats,
  };
  const name: Partial<Record<(typeof AGGREGATES)[number], string>> = {
    LATENCY_P50: "latency_p50_seconds",
    LATENCY_P99: "latency_p99_seconds",
    FIRST_TOKEN_P50: "first_token_p50_seconds",
    FIRST_TOKEN_P99: "first_token_p99_seconds",
  };
  return Object.fromEntries(q.select.map((s) => [name[s] ?? s.toLowerCase(), all[s]]));
}
