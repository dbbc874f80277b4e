-- Runs an ingest request carried but could not store (invalid content, an id another workspace
-- uses): the rest of the request was stored, these are listed here so nothing is lost silently.
CREATE TABLE "ingest_errors" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "project_id" UUID,
  "run_id" TEXT NOT NULL,
  "detail" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "ingest_errors_workspace_id_created_at_idx" ON "ingest_errors" ("workspace_id", "created_at" DESC);
CREATE INDEX "ingest_errors_project_id_created_at_idx" ON "ingest_errors" ("project_id", "created_at" DESC) WHERE "project_id" IS NOT NULL;
