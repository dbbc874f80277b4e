-- Datasets of examples. Examples are versioned: every change closes the example's current row
-- (valid_to) and opens a new one (valid_from), so a dataset can be read as of any earlier time.
CREATE TABLE "datasets" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "data_type" TEXT NOT NULL DEFAULT 'kv' CHECK ("data_type" IN ('kv', 'llm', 'chat')),
  "inputs_schema_definition" JSONB,
  "outputs_schema_definition" JSONB,
  "extra" JSONB,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "datasets_workspace_id_name_key" ON "datasets" ("workspace_id", "name");

-- One row per version of an example. The current version has valid_to NULL; a deleted example
-- has none. Splits live in metadata.dataset_split (an array). attachments is
-- {name: {blob_key, mime_type, size}} with the bytes in the blob store.
CREATE TABLE "example_versions" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "dataset_id" UUID NOT NULL,
  "example_id" UUID NOT NULL,
  "inputs" JSONB NOT NULL DEFAULT '{}',
  "outputs" JSONB,
  "metadata" JSONB,
  "attachments" JSONB NOT NULL DEFAULT '{}',
  "source_run_id" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  -- The example's place in the request that created it: examples created together keep their order.
  "position" INTEGER NOT NULL DEFAULT 0,
  "valid_from" TIMESTAMPTZ(6) NOT NULL,
  "valid_to" TIMESTAMPTZ(6)
);
CREATE UNIQUE INDEX "example_versions_current_key" ON "example_versions" ("example_id") WHERE "valid_to" IS NULL;
CREATE INDEX "example_versions_current_dataset_idx" ON "example_versions" ("dataset_id", "created_at", "position", "example_id") WHERE "valid_to" IS NULL;
CREATE INDEX "example_versions_example_id_valid_from_idx" ON "example_versions" ("example_id", "valid_from");
CREATE INDEX "example_versions_dataset_id_valid_from_idx" ON "example_versions" ("dataset_id", "valid_from");

-- A named version of a dataset: the tag points at a time.
CREATE TABLE "dataset_tags" (
  "dataset_id" UUID NOT NULL,
  "tag" TEXT NOT NULL,
  "workspace_id" UUID NOT NULL,
  "as_of" TIMESTAMPTZ(6) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("dataset_id", "tag")
);
