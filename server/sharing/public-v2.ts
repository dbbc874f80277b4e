import { z } from "zod";
import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { readRuns } from "../runs/read";
import { runsOfTrace } from "../runs/traces-v2";
import { v2Run } from "../runs/v2";
import { readTurns } from "../runs/threads-v2";
import { resolveShare } from "./service";

/** What a shared trace's runs show through the v2 public API: previews, not the full inputs and outputs. */
const PUBLIC_SELECTS = [
  "ID",
  "NAME",
  "RUN_TYPE",
  "STATUS",
  "START_TIME",
  "END_TIME",
  "LATENCY_SECONDS",
  "FIRST_TOKEN_TIME",
  "ERROR",
  "ERROR_PREVIEW",
  "EXTRA",
  "METADATA",
  "INPUTS_PREVIEW",
  "OUTPUTS_PREVIEW",
  "PARENT_RUN_ID",
  "PARENT_RUN_IDS",
  "PROJECT_ID",
  "TRACE_ID",
  "THREAD_ID",
  "DOTTED_ORDER",
  "IS_ROOT",
  "REFERENCE_DATASET_ID",
  "TOTAL_TOKENS",
  "PROMPT_TOKENS",
  "COMPLETION_TOKENS",
  "TOTAL_COST",
  "PROMPT_COST",
  "COMPLETION_COST",
  "PROMPT_TOKEN_DETAILS",
  "COMPLETION_TOKEN_DETAILS",
  "PROMPT_COST_DETAILS",
  "COMPLETION_COST_DETAILS",
  "PRICE_MODEL_ID",
  "TAGS",
  "THREAD_EVALUATION_TIME",
  "FEEDBACK_STATS",
] as const;
const publicSelect = z.enum(PUBLIC_SELECTS);

/** GET /api/v2/public/{token}/run/{id}: `selects` repeated in the query. */
export const publicRunQuery = z.looseObject({
  selects: z
    .union([publicSelect, z.array(publicSelect)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

/** POST /api/v2/public/{token}/runs/query */
export const publicRunsQuery = z.looseObject({ selects: z.array(publicSelect).nullish() });

/** Most turns of a shared thread the public API shows. */
const MAX_PUBLIC_TURNS = 100;

/** The traces a token shares: one trace, or a thread's traces (its turns, oldest first). */
async function sharedTraces(db: Sql, token: string): Promise<{ workspaceId: string; traceIds: string[] }> {
  const shared = await resolveShare(db, token);
  if (shared.kind === "run") return { workspaceId: shared.workspaceId, traceIds: [shared.resourceId] };
  if (shared.kind !== "thread") throw notFound("This shared link does not share runs.");
  const turns = await readTurns(db, shared.workspaceId, shared.resourceId, shared.resourceKey!, undefined, MAX_PUBLIC_TURNS);
  return { workspaceId: shared.workspaceId, traceIds: turns.slice(0, MAX_PUBLIC_TURNS).map((t) => t.trace_id as string) };
}

/** One run of the shared trace or thread, in the v2 shape (the client's `public.runs.retrieve`). */
export async function publicRunV2(db: Sql, token: string, runId: string, selects: (typeof PUBLIC_SELECTS)[number][]) {
  const { workspaceId, traceIds } = await sharedTraces(db, token);
  const [run] = await readRuns(db, workspaceId, [runId]);
  if (!run || !traceIds.includes(run.trace_id)) throw notFound(`Run ${runId} is not part of what this link shares.`);
  return v2Run(run, selects);
}

/** Every run of the shared trace, or of the shared thread's traces, oldest first (the client's `public.runs.query`). */
export async function publicRunsV2(db: Sql, token: string, q: z.infer<typeof publicRunsQuery>) {
  const { workspaceId, traceIds } = await sharedTraces(db, token);
  const runs = await Promise.all(traceIds.map((trace) => runsOfTrace(db, workspaceId, trace, {}, q.selects ?? [])));
  return { items: runs.flat() };
}
