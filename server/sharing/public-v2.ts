import { z } from "zod";
import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { readRuns } from "../runs/read";
import { runsOfTrace } from "../runs/traces-v2";
import { v2Run } from "../runs/v2";
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

/** One run of the shared trace, in the v2 shape (the client's `public.runs.retrieve`). */
export async function publicRunV2(db: Sql, token: string, runId: string, selects: (typeof PUBLIC_SELECTS)[number][]) {
  const shared = await resolveShare(db, token, "run");
  const [run] = await readRuns(db, shared.workspaceId, [runId]);
  if (!run || run.trace_id !== shared.resourceId) throw notFound(`Run ${runId} is not part of this shared trace.`);
  return v2Run(run, selects);
}

/** Every run of the shared trace, oldest first (the client's `public.runs.query`). */
export async function publicRunsV2(db: Sql, token: string, q: z.infer<typeof publicRunsQuery>) {
  const shared = await resolveShare(db, token, "run");
  return { items: await runsOfTrace(db, shared.workspaceId, shared.resourceId, {}, q.selects ?? []) };
}
