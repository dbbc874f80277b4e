-- Trace retention per project (LangSmith's tiers): unset keeps traces until the project is deleted;
-- "shortlived" keeps a trace 14 days, or long_lived_retention_days (400 by default) once it is
-- extended (it has feedback, a run of it became an example or is in an annotation queue);
-- "longlived" keeps every trace long_lived_retention_days. server/runs/retention.ts deletes the rest.
ALTER TABLE "projects" ADD COLUMN "trace_tier" TEXT CHECK ("trace_tier" IN ('shortlived', 'longlived'));
ALTER TABLE "projects" ADD COLUMN "long_lived_retention_days" INTEGER CHECK ("long_lived_retention_days" BETWEEN 1 AND 3650);

-- What makes a trace extended, looked up per expiring trace.
CREATE INDEX "feedback_trace" ON "feedback" ("workspace_id", "trace_id") WHERE "trace_id" IS NOT NULL;
CREATE INDEX "example_versions_source_run" ON "example_versions" ("source_run_id") WHERE "source_run_id" IS NOT NULL;
