-- Automation rules claim runs from the runs table itself (server/rules/claim.ts) instead of from a
-- notification sent after ingest, which a crash could lose: per workspace, a cursor over the
-- finished runs by (updated_at, id) says how far its rules have considered them. The claim that
-- moves it stores the rules' decisions and enqueues their actions in one transaction.
CREATE TABLE "rule_cursors" (
  "workspace_id" UUID NOT NULL PRIMARY KEY,
  "claimed_time" TIMESTAMPTZ NOT NULL,
  "claimed_id" UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000'
);
-- The workspaces that already have rules start an hour back, so runs whose after-ingest job had not
-- run yet are claimed too (the runs already considered are marked in run_rule_runs and skipped).
INSERT INTO "rule_cursors" ("workspace_id", "claimed_time")
SELECT DISTINCT "workspace_id", now() - interval '1 hour' FROM "run_rules";

-- Finished runs in the order they were last written, per workspace: the cursor's scan. Partial, so
-- a run posted unfinished gets its entry only when it ends.
CREATE INDEX "runs_finished_updated_idx" ON "runs" ("workspace_id", "updated_at", "id") WHERE "end_time" IS NOT NULL;
