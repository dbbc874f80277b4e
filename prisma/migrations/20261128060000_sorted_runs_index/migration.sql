-- Sorting a project's runs by tokens or cost through indexes (issue 34; server/runs/sorted.ts). The
-- table shows a root run with its trace's totals (its own when the trace has none) and every other
-- run with its own, so the order is read from two indexes merged page by page:
--  * root runs from `trace_totals`, which now carries its root's project and the root's own tokens
--    and cost (written by ingest's totals upsert from the same rows), indexed by the value shown;
--  * the other runs from partial indexes of `runs` on their own tokens and cost.
ALTER TABLE "trace_totals" ADD COLUMN "project_id" UUID, ADD COLUMN "root_total_tokens" BIGINT, ADD COLUMN "root_total_cost" NUMERIC;

-- The new columns change no total, so the rollups have nothing to move: their update trigger (which
-- pairs old and new rows by nested loops, fine for a request's traces but quadratic over the whole
-- table) stays out of the backfill.
ALTER TABLE "trace_totals" DISABLE TRIGGER "trace_totals_rollup_update";
UPDATE "trace_totals" t SET "project_id" = r."project_id", "root_total_tokens" = r."total_tokens", "root_total_cost" = r."total_cost"
FROM "runs" r WHERE r."is_root" AND r."workspace_id" = t."workspace_id" AND r."trace_id" = t."trace_id";
ALTER TABLE "trace_totals" ENABLE TRIGGER "trace_totals_rollup_update";

CREATE INDEX "trace_totals_project_tokens_idx" ON "trace_totals" ("workspace_id", "project_id", (coalesce("total_tokens", "root_total_tokens")))
  WHERE "project_id" IS NOT NULL AND coalesce("total_tokens", "root_total_tokens") IS NOT NULL;
CREATE INDEX "trace_totals_project_cost_idx" ON "trace_totals" ("workspace_id", "project_id", (coalesce("total_cost", "root_total_cost")))
  WHERE "project_id" IS NOT NULL AND coalesce("total_cost", "root_total_cost") IS NOT NULL;
CREATE INDEX "runs_project_tokens_idx" ON "runs" ("workspace_id", "project_id", "total_tokens") WHERE NOT "is_root" AND "total_tokens" IS NOT NULL;
CREATE INDEX "runs_project_cost_idx" ON "runs" ("workspace_id", "project_id", "total_cost") WHERE NOT "is_root" AND "total_cost" IS NOT NULL;
