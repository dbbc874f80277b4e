-- Automation rules on a project: runs matching the filter are sampled, then each action runs.
CREATE TABLE "run_rules" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "display_name" TEXT NOT NULL,
  "filter" TEXT,
  "sampling_rate" DOUBLE PRECISION NOT NULL DEFAULT 1 CHECK ("sampling_rate" >= 0 AND "sampling_rate" <= 1),
  "is_enabled" BOOLEAN NOT NULL DEFAULT true,
  "add_to_dataset_id" UUID,
  "add_feedback" JSONB,
  "webhooks" JSONB NOT NULL DEFAULT '[]',
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "run_rules_workspace_id_project_id_idx" ON "run_rules" ("workspace_id", "project_id");

-- Each run is considered once per rule, so a post and its later patch do not act twice.
CREATE TABLE "run_rule_runs" (
  "rule_id" UUID NOT NULL,
  "run_id" UUID NOT NULL,
  "sampled" BOOLEAN NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("rule_id", "run_id")
);

-- One row per action outcome (a webhook's every attempt is summarised in one row).
CREATE TABLE "run_rule_logs" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "rule_id" UUID NOT NULL,
  "run_id" UUID NOT NULL,
  "action" TEXT NOT NULL,
  "outcome" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 1,
  "status_code" INTEGER,
  "detail" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "run_rule_logs_rule_id_created_at_idx" ON "run_rule_logs" ("rule_id", "created_at" DESC);
