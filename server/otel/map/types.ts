import type { OtlpSpan } from "../otlp";
import type { RunType } from "../../ingest/limits";

/** Spans become runs of ingest's run types only: a span of no known kind is a chain (to-runs.ts). */
export { RUN_TYPES, type RunType } from "../../ingest/limits";

/** LangSmith's usage_metadata: totals plus per-kind details, so cost is computed as for native runs. */
export interface UsageMetadata {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: Record<string, number>;
  output_token_details?: Record<string, number>;
  [key: string]: unknown;
}

/**
 * What one convention read from a span. Adapters run in a fixed order and an earlier adapter's
 * value wins, field by field (metadata, invocation params and usage key by key).
 */
export interface Draft {
  name?: string;
  runType?: RunType;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  invocationParams?: Record<string, unknown>;
  usage?: UsageMetadata;
  tags?: string[];
  provider?: string;
  model?: string;
  runId?: string;
  traceId?: string;
  parentRunId?: string;
  dottedOrder?: string;
  sessionName?: string;
  sessionId?: string;
  referenceExampleId?: string;
  /** A point in time (Langfuse's events): the run ends where it starts. */
  instant?: boolean;
  /** An error the convention states (Langfuse's level ERROR); exception events and an ERROR status come first. */
  error?: string;
  /** Nanoseconds after the start at which the first token arrived (streaming), for time-to-first-token. */
  firstTokenAfterNanos?: bigint;
}

export interface Adapter {
  name: string;
  /** Attribute key prefixes this convention owns when it reads a span; what no reading adapter owns is kept as metadata. */
  prefixes: string[];
  /** Null when the span does not follow this convention. */
  map(span: OtlpSpan): Draft | null;
}
