-- Indexes for querying runs (server/runs). The first page of a project and of its traces are
-- keyset scans; tags and metadata filters are GIN containment lookups.
CREATE INDEX "runs_root_workspace_id_project_id_start_time_id_idx" ON "runs" ("workspace_id", "project_id", "start_time" DESC, "id") WHERE "is_root";
CREATE INDEX "runs_tags_idx" ON "runs" USING GIN ("tags");
CREATE INDEX "runs_extra_idx" ON "runs" USING GIN ("extra" jsonb_path_ops);
CREATE INDEX "runs_thread_idx" ON "runs" ("workspace_id", "project_id", "thread_id", "start_time") WHERE "thread_id" IS NOT NULL;

-- Full-text search is a case-insensitive substring match over name, error, inputs and outputs.
-- A trigram index answers it where pg_trgm can be installed (PostgreSQL); the embedded database
-- has no pg_trgm and scans instead. The expression must match searchText() in server/runs/filter.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable: run search will scan';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $idx$CREATE INDEX "runs_search_trgm_idx" ON "runs" USING GIN ((("name" || ' ' || coalesce("error", '') || ' ' || coalesce("inputs"::text, '') || ' ' || coalesce("outputs"::text, ''))) gin_trgm_ops)$idx$;
  END IF;
END
$$;

-- Saved chart sets (dashboards): sections of chart definitions, per workspace, optionally per project.
CREATE TABLE "chart_sets" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "project_id" UUID,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "sections" JSONB NOT NULL DEFAULT '[]',
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "chart_sets_workspace_id_name_key" ON "chart_sets" ("workspace_id", "name");
