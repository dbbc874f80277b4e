CREATE TABLE "workspaces" (
  "id" UUID PRIMARY KEY,
  "name" TEXT NOT NULL,
  "handle" TEXT UNIQUE,
  "region" TEXT NOT NULL DEFAULT 'us',
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

CREATE TABLE "api_keys" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "user_id" UUID,
  "kind" TEXT NOT NULL DEFAULT 'service',
  "role" TEXT NOT NULL DEFAULT 'admin',
  "description" TEXT NOT NULL DEFAULT '',
  "prefix" TEXT NOT NULL,
  "hash" TEXT NOT NULL UNIQUE,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "last_used_at" TIMESTAMPTZ(6),
  "revoked_at" TIMESTAMPTZ(6)
);
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys" ("workspace_id");

CREATE TABLE "projects" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "extra" JSONB,
  "reference_dataset_id" UUID,
  "start_time" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "end_time" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "projects_workspace_id_name_key" ON "projects" ("workspace_id", "name");

CREATE TABLE "runs" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "trace_id" UUID NOT NULL,
  "parent_run_id" UUID,
  "dotted_order" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "name" TEXT NOT NULL,
  "run_type" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "start_time" TIMESTAMPTZ(6) NOT NULL,
  "end_time" TIMESTAMPTZ(6),
  "latency_ms" DOUBLE PRECISION,
  "inputs" JSONB,
  "outputs" JSONB,
  "error" TEXT,
  "extra" JSONB,
  "events" JSONB,
  "tags" TEXT[] NOT NULL DEFAULT '{}',
  "serialized" JSONB,
  "reference_example_id" UUID,
  "thread_id" TEXT,
  "model" TEXT,
  "provider" TEXT,
  "prompt_tokens" INTEGER,
  "completion_tokens" INTEGER,
  "total_tokens" INTEGER,
  "tokens_estimated" BOOLEAN NOT NULL DEFAULT false,
  "prompt_cost" DECIMAL(20,10),
  "completion_cost" DECIMAL(20,10),
  "total_cost" DECIMAL(20,10),
  "usage_details" JSONB,
  "first_token_time" TIMESTAMPTZ(6),
  "diagnostics" JSONB,
  "placement_pending" BOOLEAN NOT NULL DEFAULT false,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "runs_workspace_id_project_id_start_time_id_idx" ON "runs" ("workspace_id", "project_id", "start_time" DESC, "id");
CREATE INDEX "runs_trace_id_idx" ON "runs" ("trace_id");
CREATE INDEX "runs_parent_run_id_idx" ON "runs" ("parent_run_id");
CREATE INDEX "runs_placement_pending_idx" ON "runs" ("parent_run_id") WHERE "placement_pending";

CREATE TABLE "attachments" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "run_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "mime_type" TEXT NOT NULL,
  "size" INTEGER NOT NULL,
  "blob_key" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "attachments_run_id_name_key" ON "attachments" ("run_id", "name");
