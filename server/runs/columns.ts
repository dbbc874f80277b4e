import { join, raw, sql, type SqlFragment } from "../db/sql";

/** A runs row as RUN_COLUMNS selects it (costs cast to float8 so they arrive as numbers). */
export interface RunRow {
  id: string;
  workspace_id: string;
  project_id: string;
  trace_id: string;
  parent_run_id: string | null;
  dotted_order: string;
  is_root: boolean;
  name: string;
  run_type: string;
  status: string;
  start_time: string;
  end_time: string | null;
  latency_ms: number | null;
  inputs: unknown;
  outputs: unknown;
  error: string | null;
  extra: unknown;
  events: unknown;
  tags: string[] | null;
  serialized: unknown;
  reference_example_id: string | null;
  thread_id: string | null;
  model: string | null;
  provider: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
  first_token_time: string | null;
  /** One line of text each, computed at ingest (server/runs/preview.ts); null for older runs. */
  input_preview: string | null;
  output_preview: string | null;
  /** Token and cost breakdown derived at ingest (server/llm/derive.ts). */
  usage_details: UsageDetails | null;
}

export interface UsageDetails {
  cache_read?: number;
  cache_creation?: number;
  reasoning?: number;
  input_audio?: number;
  output_audio?: number;
  /** Cost by token type: input, cache_read, cache_write, input_audio, output, reasoning, output_audio. */
  cost?: Record<string, number>;
  /** The breakdowns a run's usage_metadata reported, as sent (server/llm/usage.ts ReportedDetails). */
  prompt_token_details?: Record<string, number>;
  completion_token_details?: Record<string, number>;
  prompt_cost_details?: Record<string, number>;
  completion_cost_details?: Record<string, number>;
}

const LIGHT = [
  "id",
  "workspace_id",
  "project_id",
  "trace_id",
  "parent_run_id",
  "dotted_order",
  "is_root",
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "latency_ms",
  "error",
  "tags",
  "reference_example_id",
  "thread_id",
  "model",
  "provider",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "first_token_time",
  "usage_details",
  "input_preview",
  "output_preview",
];
const COSTS = ["prompt_cost", "completion_cost", "total_cost"];
/** Large JSON columns, read only when the caller's `select` asks for them. */
export const HEAVY_COLUMNS = ["inputs", "outputs", "extra", "events", "serialized"] as const;

/** The select list for a run aliased `alias`; heavy JSON columns not in `heavy` come back NULL. */
export function runColumns(alias = "r", heavy: ReadonlySet<string> = new Set(HEAVY_COLUMNS)): SqlFragment {
  const a = (c: string) => raw(`${alias}.${c}`);
  return join([
    ...LIGHT.map((c) => a(c)),
    ...COSTS.map((c) => sql`${a(c)}::float8 AS ${raw(c)}`),
    ...HEAVY_COLUMNS.map((c) => (heavy.has(c) ? a(c) : sql`NULL::jsonb AS ${raw(c)}`)),
  ]);
}

/** Every column of a run aliased `r`: what GET /runs/{id} reads. */
export const RUN_COLUMNS: SqlFragment = runColumns("r");
