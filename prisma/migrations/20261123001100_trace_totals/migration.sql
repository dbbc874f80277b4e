-- Per-trace roll-ups, refreshed by ingest for the traces a request touched, so reading a trace's
-- tokens and cost never re-scans its runs. Tokens and costs are sums over the trace's LLM runs.
CREATE TABLE "trace_totals" (
  "workspace_id" UUID NOT NULL,
  "trace_id" UUID NOT NULL,
  "runs" INTEGER NOT NULL,
  "llm_runs" INTEGER NOT NULL,
  "error_runs" INTEGER NOT NULL,
  "prompt_tokens" BIGINT,
  "completion_tokens" BIGINT,
  "total_tokens" BIGINT,
  "prompt_cost" NUMERIC,
  "completion_cost" NUMERIC,
  "total_cost" NUMERIC,
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "trace_totals_pkey" PRIMARY KEY ("workspace_id", "trace_id")
);
