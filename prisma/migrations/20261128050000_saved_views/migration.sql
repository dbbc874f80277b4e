-- Saved views of a project's runs and threads (issue 38, server/views): a name for a combination of
-- filter, search, columns, sort and time range. A view is shared with the workspace, or private to
-- the person who made it (`owner_id`); at most one shared view per project is its default, opened
-- when the project is opened without state in its address.
CREATE TABLE "saved_views" (
  "id" UUID NOT NULL,
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "state" JSONB NOT NULL,
  "owner_id" UUID,
  "is_default" BOOLEAN NOT NULL DEFAULT false,
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "modified_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "saved_views_project_fkey" FOREIGN KEY ("workspace_id", "project_id")
    REFERENCES "projects" ("workspace_id", "id") ON DELETE CASCADE,
  CONSTRAINT "saved_views_owner_fkey" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE,
  CONSTRAINT "saved_views_default_shared" CHECK (NOT "is_default" OR "owner_id" IS NULL)
);
CREATE INDEX "saved_views_project_idx" ON "saved_views" ("workspace_id", "project_id", "name");
CREATE UNIQUE INDEX "saved_views_default_idx" ON "saved_views" ("workspace_id", "project_id") WHERE "is_default";
