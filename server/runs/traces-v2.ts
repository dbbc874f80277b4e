import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { instant } from "../core/instant";
import { uuid } from "../core/uuid";
import { queryRuns, queryRunsUntil } from "./query";
import { classicSelect } from "./query-v2";
import { runSelects, v2Run, wireRunV2, type RunSelectToken } from "./v2";

const DAY_MS = 86_400_000;
/** The most runs `GET /api/v2/traces/{id}/runs` answers (a trace's runs, all on one page). */
const MAX_TRACE_RUNS = 10_000;

const selectsParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .pipe(runSelects);

/** POST /api/v2/traces/query (the client's `traces.query`): one row per trace, its root run and totals. */
export const traceQuery = z.looseObject({
  project_id: uuid,
  min_start_time: instant.nullish(),
  max_start_time: instant.nullish(),
  trace_filter: z.string().max(10_000).nullish(),
  tree_filter: z.string().max(10_000).nullish(),
  trace_ids: z.array(uuid).max(1000).nullish(),
  ai_search: z.string().nullish(),
  selects: runSelects.nullish().transform((v) => v ?? []),
  cursor: z.string().max(1000).nullish(),
  page_size: z.number().int().min(1).max(100).default(100),
});

/** A trace in the v2 shape: its root run and the trace's totals. */
export const wireTraceV2 = z.object({
  root_run: wireRunV2,
  trace_aggregates: z.object({ total_tokens: z.number(), total_cost: z.number(), first_token_time: z.string().nullable() }),
});

/**
 * The project's traces started in the window (a day by default), newest first: the root run with
 * the selected fields, and the trace's totals (its root's roll-up of every run's tokens and cost).
 */
export async function queryTraces(db: Sql, workspaceId: string, q: z.infer<typeof traceQuery>) {
  if (q.ai_search) throw badRequest("ai_search (semantic search) is not available on this deployment.");
  const page = await queryRuns(db, workspaceId, {
    projectIds: [q.project_id],
    isRoot: true,
    startTime: (q.min_start_time ?? new Date(Date.now() - DAY_MS)).toISOString(),
    endTime: (q.max_start_time ?? new Date()).toISOString(),
    filter: (q.trace_ids?.length ? combine(q.trace_filter, q.trace_ids) : q.trace_filter) ?? undefined,
    treeFilter: q.tree_filter ?? undefined,
    fields: classicSelect(q.selects),
    limit: q.page_size,
    cursor: q.cursor ?? undefined,
  });
  return {
    items: page.runs.map((root) => ({
      root_run: v2Run(root, q.selects),
      trace_aggregates: {
        total_tokens: root.total_tokens ?? 0,
        total_cost: root.total_cost ?? 0,
        first_token_time: root.first_token_time ?? null,
      },
    })),
    next_cursor: page.cursors.next,
  };
}

/** The trace filter narrowed to some traces, in the filter language. */
function combine(filter: string | null | undefined, traceIds: string[]): string {
  const ids = `in(trace_id, [${traceIds.map((id) => `"${id}"`).join(", ")}])`;
  return filter ? `and(${filter}, ${ids})` : ids;
}

/** GET /api/v2/traces/{id}/runs (the client's `traces.listRuns`). */
export const traceRunsQuery = z.looseObject({
  project_id: uuid,
  filter: z.string().max(10_000).optional(),
  min_start_time: instant.optional(),
  max_start_time: instant.optional(),
  selects: selectsParam,
});

/** Every run of one trace in the project (oldest first), up to 10,000, with the selected fields. */
export async function traceRunsV2(db: Sql, workspaceId: string, traceId: string, q: z.infer<typeof traceRunsQuery>) {
  return { items: await runsOfTrace(db, workspaceId, traceId, q, q.selects) };
}

/** A trace's runs oldest first (up to 10,000) in the v2 shape; `where` narrows them (a project, a filter, a window). */
export async function runsOfTrace(
  db: Sql,
  workspaceId: string,
  traceId: string,
  where: { project_id?: string; filter?: string; min_start_time?: Date; max_start_time?: Date },
  selects: RunSelectToken[],
) {
  const runs = await queryRunsUntil(
    db,
    workspaceId,
    {
      projectIds: where.project_id ? [where.project_id] : undefined,
      traceId,
      filter: where.filter,
      startTime: where.min_start_time?.toISOString(),
      endTime: where.max_start_time?.toISOString(),
      fields: classicSelect(selects),
      order: "asc",
    },
    MAX_TRACE_RUNS,
  );
  return runs.slice(0, MAX_TRACE_RUNS).map((r) => v2Run(r, selects));
}
