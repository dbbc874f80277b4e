import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { instant } from "../core/instant";
import { decodeOffset, encodeOffset } from "../core/offset-cursor";
import { uuid } from "../core/uuid";
import { queryRunsUntil } from "./query";
import type { SelectedRun } from "./serialize";
import { groupThreads } from "./threads";

export const DAY_MS = 86_400_000;
export const filterText = z.string().max(10_000).optional();
export const many = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as z.infer<T>[]);

/** POST /api/v2/threads/query (the client's `threads.query`). */
export const threadQuery = z.looseObject({
  project_id: uuid,
  min_start_time: instant.nullish(),
  max_start_time: instant.nullish(),
  filter: z.string().max(10_000).nullish(),
  ai_search: z.string().nullish(),
  cursor: z.string().max(1000).nullish(),
  page_size: z.number().int().min(1).max(100).default(20),
});

/**
 * A project's threads with runs in the window (a day by default), most recently active first:
 * each thread's trace count, tokens, cost, latency of its turns, first input and last output.
 */
export async function queryThreads(db: Sql, workspaceId: string, q: z.infer<typeof threadQuery>) {
  if (q.ai_search) throw badRequest("ai_search (semantic search) is not available on this deployment.");
  const offset = decodeOffset(q.cursor);
  const { groups, total } = await groupThreads(db, workspaceId, {
    projectId: q.project_id,
    filter: q.filter ?? undefined,
    startTime: (q.min_start_time ?? new Date(Date.now() - DAY_MS)).toISOString(),
    endTime: (q.max_start_time ?? new Date()).toISOString(),
    limit: q.page_size,
    offset,
  });
  return {
    items: groups.map(({ filter: _filter, ...t }) => ({ ...t, start_time: t.max_start_time })),
    next_cursor: offset + groups.length < total ? encodeOffset(offset + groups.length) : null,
  };
}

const THREAD_TRACE_FIELDS = {
  THREAD_ID: (r) => r.thread_id ?? null,
  TRACE_ID: (r) => r.trace_id,
  NAME: (r) => r.name,
  START_TIME: (r) => r.start_time,
  END_TIME: (r) => r.end_time ?? null,
  LATENCY: (r) => r.latency ?? null,
  FIRST_TOKEN_TIME: (r) => r.first_token_time ?? null,
  INPUTS: (r) => r.inputs ?? null,
  OUTPUTS: (r) => r.outputs ?? null,
  INPUTS_PREVIEW: (r) => r.inputs_preview ?? null,
  OUTPUTS_PREVIEW: (r) => r.outputs_preview ?? null,
  ERROR: (r) => r.error ?? null,
  ERROR_PREVIEW: (r) => r.error?.slice(0, 300) ?? null,
  PROMPT_TOKENS: (r) => r.prompt_tokens ?? null,
  COMPLETION_TOKENS: (r) => r.completion_tokens ?? null,
  TOTAL_TOKENS: (r) => r.total_tokens ?? null,
  PROMPT_COST: (r) => r.prompt_cost ?? null,
  COMPLETION_COST: (r) => r.completion_cost ?? null,
  TOTAL_COST: (r) => r.total_cost ?? null,
  PROMPT_TOKEN_DETAILS: (r) => r.prompt_token_details ?? null,
  COMPLETION_TOKEN_DETAILS: (r) => r.completion_token_details ?? null,
  PROMPT_COST_DETAILS: (r) => r.prompt_cost_details ?? null,
  COMPLETION_COST_DETAILS: (r) => r.completion_cost_details ?? null,
  OP: () => null,
} satisfies Record<string, (run: SelectedRun) => unknown>;
type ThreadTraceToken = keyof typeof THREAD_TRACE_FIELDS | "TURN_NUMBER";

/** Most turns a thread's stats read. */
export const MAX_TURNS = 10_000;

/** The thread's turns (its traces' roots) oldest first, at least `atLeast` of them when there are that many. */
export async function readTurns(
  db: Sql,
  workspaceId: string,
  projectId: string,
  threadId: string,
  extraFilter: string | undefined,
  atLeast: number,
): Promise<SelectedRun[]> {
  const thread = `eq(thread_id, ${JSON.stringify(threadId)})`;
  const filter = extraFilter ? `and(${thread}, ${extraFilter})` : thread;
  return queryRunsUntil(db, workspaceId, { projectIds: [projectId], isRoot: true, filter, order: "asc", limit: 100 }, atLeast);
}

/** GET /api/v2/threads/{id}/traces (the client's `threads.listTraces`). */
export const threadTracesQuery = z.looseObject({
  project_id: uuid,
  filter: filterText,
  selects: many(z.enum([...(Object.keys(THREAD_TRACE_FIELDS) as (keyof typeof THREAD_TRACE_FIELDS)[]), "TURN_NUMBER"])),
  cursor: z.string().max(1000).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** A turn of a thread (`client.threads.listTraces`): its trace id and the fields selected. */
export const wireThreadTurn = z.looseObject({ trace_id: z.string() });
type WireThreadTurn = z.infer<typeof wireThreadTurn>;

/** The thread's turns (its traces' roots), oldest first, each with the selected fields and its turn number. */
export async function threadTracesV2(db: Sql, workspaceId: string, threadId: string, q: z.infer<typeof threadTracesQuery>) {
  const offset = decodeOffset(q.cursor);
  const turns = await readTurns(db, workspaceId, q.project_id, threadId, q.filter, offset + q.page_size + 1);
  const selects: ThreadTraceToken[] = q.selects.length ? q.selects : ["TRACE_ID", "START_TIME"];
  const items = turns.slice(offset, offset + q.page_size).map((run, i): WireThreadTurn => ({
    trace_id: run.trace_id,
    ...Object.fromEntries(selects.map((s) => [s.toLowerCase(), s === "TURN_NUMBER" ? offset + i + 1 : THREAD_TRACE_FIELDS[s](run)])),
  }));
  return { items, next_cursor: offset + items.length < turns.length ? encodeOffset(offset + items.length) : null };
}
