import { z } from "zod";
import { wireKeyStats, type FeedbackStats } from "../feedback/stats";
import { isoFromDb } from "../core/time";
import type { RunRow, UsageDetails } from "./columns";

const attachmentLink = z.object({ presigned_url: z.string(), mime_type: z.string() });
export type AttachmentLink = z.infer<typeof attachmentLink>;

const counts = z.record(z.string(), z.number()).nullable();

/** A run as the LangSmith API returns it (GET /runs/{id}, POST /runs/query, the UI's tRPC reads). */
export const storedRun = z.object({
  id: z.string(),
  name: z.string(),
  run_type: z.string(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  status: z.string(),
  inputs: z.unknown(),
  outputs: z.unknown(),
  error: z.string().nullable(),
  extra: z.looseObject({ metadata: z.record(z.string(), z.unknown()).optional() }),
  events: z.array(z.unknown()),
  tags: z.array(z.string()),
  serialized: z.unknown(),
  trace_id: z.string(),
  dotted_order: z.string(),
  parent_run_id: z.string().nullable(),
  /** The ancestors, root first. */
  parent_run_ids: z.array(z.string()),
  session_id: z.string(),
  reference_example_id: z.string().nullable(),
  thread_id: z.string().nullable(),
  /** One line of text each, computed at ingest; null for runs stored before. */
  inputs_preview: z.string().nullable(),
  outputs_preview: z.string().nullable(),
  model: z.string().nullable(),
  app_path: z.string(),
  /** Seconds. */
  latency: z.number().nullable(),
  first_token_time: z.string().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  prompt_cost: z.number().nullable(),
  completion_cost: z.number().nullable(),
  total_cost: z.number().nullable(),
  prompt_token_details: counts,
  completion_token_details: counts,
  prompt_cost_details: counts,
  completion_cost_details: counts,
  feedback_stats: z.record(z.string(), wireKeyStats).nullable(),
  s3_urls: z.record(z.string(), attachmentLink),
});
export type WireRun = z.infer<typeof storedRun>;

/** The fields every selection returns (IDENTITY_FIELDS). */
export type IdentityField =
  "id" | "name" | "run_type" | "start_time" | "trace_id" | "dotted_order" | "parent_run_id" | "session_id" | "status";

/** A run serialized with the SDK's `select`: its identity, and whichever selected fields it has. */
export const selectedRun = storedRun.partial().required({
  id: true,
  name: true,
  run_type: true,
  start_time: true,
  trace_id: true,
  dotted_order: true,
  parent_run_id: true,
  session_id: true,
  status: true,
});
export type SelectedRun = z.infer<typeof selectedRun>;

/** GET /runs/{id}: the whole run, with the structural problems of an LLM run's messages. */
export const runDetail = storedRun.extend({ diagnostics: z.array(z.unknown()).optional() });

export interface SerializeOptions {
  /** Per-key feedback statistics of this run (server/feedback/stats.ts); omitted means none. */
  feedbackStats?: FeedbackStats | null;
  /** `{"attachment.<name>": {presigned_url, mime_type}}` for this run. */
  attachments?: Record<string, AttachmentLink> | null;
  /** Keys to return (the SDK's `select`) beside IDENTITY_FIELDS, always returned. All keys when absent. */
  select?: ReadonlySet<string> | null;
}

/** The ancestors of a run, root first, from its dotted order (each segment ends in a run id). */
export function parentRunIds(dottedOrder: string): string[] {
  const segments = dottedOrder.split(".");
  return segments.slice(0, -1).map((s) => s.slice(-36));
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * The columns every selection returns, whatever `select` names: the Python client's Run model
 * requires them, and a run without its place in a trace is not usable.
 */
export const IDENTITY_FIELDS: readonly IdentityField[] = [
  "id",
  "name",
  "run_type",
  "start_time",
  "trace_id",
  "dotted_order",
  "parent_run_id",
  "session_id",
  "status",
];

/** Only the non-zero entries, or null when none is (the SDK's `*_details` maps). */
function details(entries: Record<string, number | undefined>): Record<string, number> | null {
  const kept = Object.entries(entries).filter((e): e is [string, number] => typeof e[1] === "number" && e[1] !== 0);
  return kept.length ? Object.fromEntries(kept) : null;
}

/**
 * The token and cost breakdowns under the SDK's names: as the run's usage_metadata reported them
 * (every key, as sent), else from what ingest derived (usage_metadata's input/output_token_details keys).
 */
function breakdowns(u: UsageDetails | null) {
  const cost = u?.cost ?? {};
  return {
    prompt_token_details:
      u?.prompt_token_details ?? details({ cache_read: u?.cache_read, cache_creation: u?.cache_creation, audio: u?.input_audio }),
    completion_token_details: u?.completion_token_details ?? details({ reasoning: u?.reasoning, audio: u?.output_audio }),
    prompt_cost_details:
      u?.prompt_cost_details ?? details({ cache_read: cost.cache_read, cache_creation: cost.cache_write, audio: cost.input_audio }),
    completion_cost_details: u?.completion_cost_details ?? details({ reasoning: cost.reasoning, audio: cost.output_audio }),
  };
}

/**
 * Each breakdown comes with its total: the Python client's default `select` names the totals only,
 * yet its Run model reads the breakdowns (input_token_details, input_cost_details…).
 */
const BREAKDOWN_OF: Record<string, keyof WireRun> = {
  prompt_tokens: "prompt_token_details",
  completion_tokens: "completion_token_details",
  prompt_cost: "prompt_cost_details",
  completion_cost: "completion_cost_details",
};

/** A run as the LangSmith API returns it: whole, or only the selected fields beside its identity. */
export function serializeRun(row: RunRow, options?: SerializeOptions & { select?: null }): WireRun;
export function serializeRun(row: RunRow, options: SerializeOptions): SelectedRun;
export function serializeRun(row: RunRow, options: SerializeOptions = {}): SelectedRun {
  const startTime = isoFromDb(row.start_time)!;
  const run: WireRun = {
    id: row.id,
    name: row.name,
    run_type: row.run_type,
    start_time: startTime,
    end_time: isoFromDb(row.end_time),
    status: row.status,
    inputs: row.inputs ?? {},
    outputs: row.outputs ?? null,
    error: row.error,
    extra: (row.extra ?? {}) as WireRun["extra"],
    events: Array.isArray(row.events) ? row.events : [],
    tags: row.tags ?? [],
    serialized: row.serialized ?? null,
    trace_id: row.trace_id,
    dotted_order: row.dotted_order,
    parent_run_id: row.parent_run_id ?? null,
    parent_run_ids: parentRunIds(row.dotted_order),
    session_id: row.project_id,
    reference_example_id: row.reference_example_id ?? null,
    thread_id: row.thread_id ?? null,
    inputs_preview: row.input_preview ?? null,
    outputs_preview: row.output_preview ?? null,
    model: row.model ?? null,
    app_path: `/o/${row.workspace_id}/projects/p/${row.project_id}/r/${row.id}?trace_id=${row.trace_id}&start_time=${startTime}`,
    latency: row.latency_ms === null ? null : row.latency_ms / 1000,
    first_token_time: isoFromDb(row.first_token_time),
    prompt_tokens: row.prompt_tokens ?? 0,
    completion_tokens: row.completion_tokens ?? 0,
    total_tokens: row.total_tokens ?? 0,
    prompt_cost: num(row.prompt_cost),
    completion_cost: num(row.completion_cost),
    total_cost: num(row.total_cost),
    ...breakdowns(row.usage_details),
    feedback_stats: options.feedbackStats ?? null,
    s3_urls: options.attachments ?? {},
  };
  if (!options.select) return run;
  const picked: Record<string, unknown> = {};
  for (const key of [...IDENTITY_FIELDS, ...options.select]) {
    if (key in run) picked[key] = run[key as keyof WireRun];
    if (BREAKDOWN_OF[key]) picked[BREAKDOWN_OF[key]] = run[BREAKDOWN_OF[key]];
  }
  // Attachments are part of what a run is, so they come back even when not selected by name.
  if (options.attachments && Object.keys(options.attachments).length > 0) picked.s3_urls = options.attachments;
  return picked as SelectedRun;
}
