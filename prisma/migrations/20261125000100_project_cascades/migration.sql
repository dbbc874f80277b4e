-- What belongs to a project says so to the database: deleting a project deletes its runs (and
-- their attachment records), feedback, chart sets, rules (with their run marks and logs) and
-- refused-run records through these cascades. Runs reference their project together with the
-- workspace, so the cascade finds them through the runs' (workspace_id, project_id, …) index.
-- NOT VALID: rows already stored are not re-checked (an older install may hold orphans); every
-- write from now on is, and the cascades apply to all rows.
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_id_key" UNIQUE ("workspace_id", "id");

ALTER TABLE "runs" ADD CONSTRAINT "runs_project_fkey"
  FOREIGN KEY ("workspace_id", "project_id") REFERENCES "projects" ("workspace_id", "id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_run_id_fkey"
  FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE NOT VALID;

CREATE INDEX "feedback_project_id_idx" ON "feedback" ("project_id") WHERE "project_id" IS NOT NULL;
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "chart_sets" ADD CONSTRAINT "chart_sets_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "ingest_errors" ADD CONSTRAINT "ingest_errors_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE NOT VALID;

ALTER TABLE "run_rules" ADD CONSTRAINT "run_rules_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "run_rule_runs" ADD CONSTRAINT "run_rule_runs_rule_id_fkey"
  FOREIGN KEY ("rule_id") REFERENCES "run_rules" ("id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "run_rule_logs" ADD CONSTRAINT "run_rule_logs_rule_id_fkey"
  FOREIGN KEY ("rule_id") REFERENCES "run_rules" ("id") ON DELETE CASCADE NOT VALID;
