import { z } from "zod";
import type { SelectedRun } from "./serialize";

/**
 * The v2 API's run fields (`selects` tokens of the 0.12 client's `RunSelectField`) and where each
 * comes from in a classic wire run. Tokens we keep nothing for answer null.
 */
const FIELDS = {
  ID: (r) => r.id,
  NAME: (r) => r.name,
  RUN_TYPE: (r) => r.run_type,
  STATUS: (r) => r.status,
  START_TIME: (r) => r.start_time,
  END_TIME: (r) => r.end_time ?? null,
  LATENCY_SECONDS: (r) => r.latency ?? null,
  FIRST_TOKEN_TIME: (r) => r.first_token_time ?? null,
  ERROR: (r) => r.error ?? null,
  ERROR_PREVIEW: (r) => r.error?.slice(0, 300) ?? null,
  EXTRA: (r) => r.extra ?? null,
  METADATA: (r) => r.extra?.metadata ?? null,
  EVENTS: (r) => r.events ?? null,
  INPUTS: (r) => r.inputs ?? null,
  INPUTS_PREVIEW: (r) => r.inputs_preview ?? null,
  OUTPUTS: (r) => r.outputs ?? null,
  OUTPUTS_PREVIEW: (r) => r.outputs_preview ?? null,
  MANIFEST: (r) => r.serialized ?? null,
  PARENT_RUN_ID: (r) => r.parent_run_id ?? null,
  PARENT_RUN_IDS: (r) => r.parent_run_ids ?? [],
  PROJECT_ID: (r) => r.session_id,
  TRACE_ID: (r) => r.trace_id,
  THREAD_ID: (r) => r.thread_id ?? null,
  DOTTED_ORDER: (r) => r.dotted_order,
  IS_ROOT: (r) => r.parent_run_id === null,
  REFERENCE_EXAMPLE_ID: (r) => r.reference_example_id ?? null,
  REFERENCE_DATASET_ID: () => null,
  TOTAL_TOKENS: (r) => r.total_tokens ?? null,
  PROMPT_TOKENS: (r) => r.prompt_tokens ?? null,
  COMPLETION_TOKENS: (r) => r.completion_tokens ?? null,
  TOTAL_COST: (r) => r.total_cost ?? null,
  PROMPT_COST: (r) => r.prompt_cost ?? null,
  COMPLETION_COST: (r) => r.completion_cost ?? null,
  PROMPT_TOKEN_DETAILS: (r) => r.prompt_token_details ?? null,
  COMPLETION_TOKEN_DETAILS: (r) => r.completion_token_details ?? null,
  PROMPT_COST_DETAILS: (r) => r.prompt_cost_details ?? null,
  COMPLETION_COST_DETAILS: (r) => r.completion_cost_details ?? null,
  PRICE_MODEL_ID: () => null,
  TAGS: (r) => r.tags ?? [],
  APP_PATH: (r) => r.app_path ?? null,
  ATTACHMENTS: (r) => r.s3_urls ?? {},
  THREAD_EVALUATION_TIME: () => null,
  IS_IN_DATASET: () => null,
  LAST_QUEUED_AT: () => null,
  SHARE_URL: () => null,
  FEEDBACK_STATS: (r) => r.feedback_stats ?? null,
  LS_USER_ID: () => null,
} satisfies Record<string, (run: SelectedRun) => unknown>;

export type RunSelectToken = keyof typeof FIELDS;
export const runSelects = z.array(z.enum(Object.keys(FIELDS) as [RunSelectToken, ...RunSelectToken[]]));

/** The classic columns each token needs read (heavy JSON is read only when selected). */
export function heavyColumnsFor(selects: readonly RunSelectToken[]): Set<string> {
  const needs: Partial<Record<RunSelectToken, string>> = {
    INPUTS: "inputs",
    OUTPUTS: "outputs",
    EXTRA: "extra",
    METADATA: "extra",
    EVENTS: "events",
    MANIFEST: "serialized",
  };
  return new Set(selects.flatMap((s) => (needs[s] ? [needs[s]] : [])));
}

/** A run in the v2 shape: `id` always, then the selected fields under their v2 names. */
export const wireRunV2 = z.looseObject({ id: z.string() });
export type WireRunV2 = z.infer<typeof wireRunV2>;

export function v2Run(run: SelectedRun, selects: readonly RunSelectToken[]): WireRunV2 {
  return { id: run.id, ...Object.fromEntries(selects.map((token) => [token.toLowerCase(), FIELDS[token](run)])) };
}
