-- Traces a client upgraded to extended retention (extend_trace_retention=true when it added their
-- runs to an annotation queue): kept long_lived_retention_days whatever becomes of the queue item.
-- Deleted with the trace by server/runs/retention.ts.
CREATE TABLE "extended_traces" (
  "workspace_id" UUID NOT NULL,
  "trace_id" UUID NOT NULL,
  "extended_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("workspace_id", "trace_id")
);
