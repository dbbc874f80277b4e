-- Feedback on runs (or on a whole project). A row may name a run that is not stored yet:
-- trace_id and project_id are filled in from the run when it arrives.
CREATE TABLE "feedback" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "run_id" UUID,
  "trace_id" UUID,
  "project_id" UUID,
  "key" TEXT NOT NULL,
  "score" DOUBLE PRECISION,
  "value" JSONB,
  "comment" TEXT,
  "correction" JSONB,
  "feedback_source" JSONB,
  "feedback_config" JSONB,
  "comparative_experiment_id" UUID,
  "feedback_group_id" UUID,
  "extra" JSONB,
  "start_time" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "feedback_workspace_id_run_id_idx" ON "feedback" ("workspace_id", "run_id");
CREATE INDEX "feedback_workspace_id_project_id_key_idx" ON "feedback" ("workspace_id", "project_id", "key");
CREATE INDEX "feedback_workspace_id_created_at_idx" ON "feedback" ("workspace_id", "created_at" DESC, "id");

-- Presigned feedback links: looked up by the token's SHA-256; the token is also kept sealed
-- (AES-GCM under the deployment secret) so the run's owner can list the links again.
CREATE TABLE "feedback_tokens" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "run_id" UUID NOT NULL,
  "feedback_key" TEXT NOT NULL,
  "feedback_config" JSONB,
  "token_hash" TEXT NOT NULL UNIQUE,
  "token_sealed" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "feedback_tokens_workspace_id_run_id_idx" ON "feedback_tokens" ("workspace_id", "run_id");

CREATE TABLE "feedback_configs" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "feedback_key" TEXT NOT NULL,
  "feedback_config" JSONB NOT NULL,
  "is_lower_score_better" BOOLEAN NOT NULL DEFAULT false,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "feedback_configs_workspace_id_feedback_key_key" ON "feedback_configs" ("workspace_id", "feedback_key");
