/** The wire shapes the UI reads, as the services serialize them (server/runs/serialize.ts). */

export interface FeedbackKeySummary {
  n: number;
  avg: number | null;
  stdev?: number | null;
  values?: Record<string, number>;
}

/** A run without its large JSON fields: what lists, tables and the trace tree show. */
export interface RunSummary {
  id: string;
  name: string;
  run_type: string;
  status: string;
  start_time: string;
  end_time: string | null;
  error: string | null;
  tags: string[];
  trace_id: string;
  dotted_order: string;
  parent_run_id: string | null;
  session_id: string;
  thread_id?: string | null;
  reference_example_id?: string | null;
  inputs_preview: string | null;
  outputs_preview: string | null;
  model: string | null;
  /** Seconds. */
  latency: number | null;
  first_token_time: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
  feedback_stats: Record<string, FeedbackKeySummary> | null;
}

/** A run with everything: what the run detail shows. */
export interface RunFull extends RunSummary {
  inputs: unknown;
  outputs: unknown;
  extra: Record<string, unknown> & { metadata?: Record<string, unknown> };
  events: unknown[];
  serialized: unknown;
  parent_run_ids: string[];
  s3_urls: Record<string, { presigned_url: string; mime_type: string }>;
}

export interface ProjectSummary {
  id: string;
  name: string;
  description: string | null;
  start_time: string;
  end_time: string | null;
  extra: Record<string, unknown>;
  reference_dataset_id: string | null;
  run_count?: number;
  error_rate?: number | null;
  latency_p50?: number | null;
  latency_p99?: number | null;
  first_token_p50?: number | null;
  total_tokens?: number;
  total_cost?: number | null;
  last_run_start_time?: string | null;
  feedback_stats?: Record<string, FeedbackKeySummary>;
}
