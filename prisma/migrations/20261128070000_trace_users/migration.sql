-- The Users page from `trace_totals` (server/runs/users.ts): a trace's row now also carries its root's
-- end user (`run_user_id()` of its metadata), thread, start time and whether it failed, written by
-- ingest's totals upsert from the rows it already has. The page's aggregate then reads one narrow
-- row per trace of a user instead of every root run's whole row (on a 1,000,000-run project, the
-- heap pages of ~100,000 root runs: ~82,000 buffers).
ALTER TABLE "trace_totals" ADD COLUMN "root_user_id" TEXT, ADD COLUMN "root_thread_id" TEXT,
  ADD COLUMN "root_start_time" TIMESTAMPTZ, ADD COLUMN "root_error" BOOLEAN;

-- The new columns change no total, so the rollups' update trigger stays out of the backfill (see
-- 20261128060000_sorted_runs_index).
ALTER TABLE "trace_totals" DISABLE TRIGGER "trace_totals_rollup_update";
UPDATE "trace_totals" t SET "root_user_id" = run_user_id(r."extra"), "root_thread_id" = r."thread_id",
  "root_start_time" = r."start_time", "root_error" = r."error" IS NOT NULL
FROM "runs" r WHERE r."is_root" AND r."workspace_id" = t."workspace_id" AND r."trace_id" = t."trace_id";
ALTER TABLE "trace_totals" ENABLE TRIGGER "trace_totals_rollup_update";

CREATE INDEX "trace_totals_users_idx" ON "trace_totals" ("workspace_id", "project_id", "root_user_id", "root_start_time")
  WHERE "root_user_id" IS NOT NULL;
