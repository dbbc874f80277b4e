-- Online evaluators: a model judges runs. An evaluator is a prompt over the run, a model connection
-- and an output schema (its properties are the feedback keys); a rule attaches it to a project (new
-- runs matching its filter, sampled) or to a dataset (the root runs of every new experiment on it).
CREATE TABLE "evaluators" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  -- A model connection's id, "default" for the deployment's, or null for the workspace's first.
  "connection_id" TEXT,
  "model" TEXT,
  -- [[role, template], ...]: the messages sent, their variables filled from the run.
  "prompt" JSONB NOT NULL,
  "template_format" TEXT NOT NULL DEFAULT 'f-string' CHECK ("template_format" IN ('f-string', 'mustache')),
  -- A JSON schema of an object: each property a feedback key (number, integer, boolean, or string
  -- enum), "comment"/"reasoning" the feedback's comment.
  -- JSON, not JSONB: the properties keep the order they were written in (the feedback keys' order).
  "output_schema" JSON NOT NULL,
  -- Template variable -> path into the run ("input", "output.answer", "reference.label", "$.inputs.q").
  "variable_mapping" JSONB NOT NULL DEFAULT '{}',
  -- Where the prompt came from, when it was taken from the prompt repository.
  "prompt_repo_handle" TEXT,
  "commit_hash_or_tag" TEXT,
  "metadata" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "evaluators_workspace_id_created_at_idx" ON "evaluators" ("workspace_id", "created_at");

ALTER TABLE "run_rules" ALTER COLUMN "project_id" DROP NOT NULL;
ALTER TABLE "run_rules" ADD COLUMN "dataset_id" UUID REFERENCES "datasets" ("id") ON DELETE CASCADE;
ALTER TABLE "run_rules" ADD COLUMN "evaluator_id" UUID REFERENCES "evaluators" ("id") ON DELETE CASCADE;
ALTER TABLE "run_rules" ADD CONSTRAINT "run_rules_target_check" CHECK (("project_id" IS NULL) <> ("dataset_id" IS NULL));
CREATE INDEX "run_rules_workspace_id_dataset_id_idx" ON "run_rules" ("workspace_id", "dataset_id");
CREATE INDEX "run_rules_evaluator_id_idx" ON "run_rules" ("evaluator_id");

-- A backfill: the rule's evaluator over the matching runs of a past time range, scanned in pages
-- (the cursor is the last run queued), each page's evaluations queued in the page's transaction.
CREATE TABLE "rule_backfills" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "rule_id" UUID NOT NULL REFERENCES "run_rules" ("id") ON DELETE CASCADE,
  "start_time" TIMESTAMPTZ(6) NOT NULL,
  "end_time" TIMESTAMPTZ(6) NOT NULL,
  "runs_total" INTEGER NOT NULL,
  "runs_queued" INTEGER NOT NULL DEFAULT 0,
  "scanned" BOOLEAN NOT NULL DEFAULT false,
  "cursor_time" TIMESTAMPTZ(6),
  "cursor_id" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "completed_at" TIMESTAMPTZ(6)
);
CREATE INDEX "rule_backfills_rule_id_created_at_idx" ON "rule_backfills" ("rule_id", "created_at");

-- One evaluation of one run by one rule's evaluator: written with its feedback, in one transaction,
-- so a job run again (a retry, a restarted instance) never evaluates a run twice.
CREATE TABLE "evaluations" (
  "rule_id" UUID NOT NULL REFERENCES "run_rules" ("id") ON DELETE CASCADE,
  "run_id" UUID NOT NULL,
  "workspace_id" UUID NOT NULL,
  "evaluator_id" UUID NOT NULL REFERENCES "evaluators" ("id") ON DELETE CASCADE,
  "backfill_id" UUID REFERENCES "rule_backfills" ("id") ON DELETE SET NULL,
  "outcome" TEXT NOT NULL CHECK ("outcome" IN ('success', 'error')),
  -- The evaluator's own traced run (the model call), and what it cost.
  "evaluator_run_id" UUID,
  "total_cost" NUMERIC,
  "attempts" INTEGER NOT NULL DEFAULT 1,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("rule_id", "run_id")
);
CREATE INDEX "evaluations_backfill_id_idx" ON "evaluations" ("backfill_id");
CREATE INDEX "evaluations_evaluator_id_created_at_idx" ON "evaluations" ("evaluator_id", "created_at");
