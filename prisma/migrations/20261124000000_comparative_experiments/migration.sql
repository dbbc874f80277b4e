-- A comparison of experiments (projects run over the same dataset), as the SDKs create it with
-- POST /datasets/comparative; pairwise feedback names it in feedback.comparative_experiment_id.
CREATE TABLE "comparative_experiments" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT,
  "description" TEXT,
  "reference_dataset_id" UUID NOT NULL,
  "experiment_ids" UUID[] NOT NULL,
  "extra" JSONB,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "comparative_experiments_workspace_id_dataset_idx" ON "comparative_experiments" ("workspace_id", "reference_dataset_id");
