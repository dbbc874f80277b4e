-- Shared threads (the client's `threads.share`): a thread is its project (resource_id) and its
-- application-given id (resource_key); one active link per thread.
ALTER TABLE "shares" ADD COLUMN "resource_key" TEXT;
DROP INDEX "shares_active_resource_key";
CREATE UNIQUE INDEX "shares_active_resource_key" ON "shares" ("workspace_id", "resource_type", "resource_id", coalesce("resource_key", ''))
  WHERE "revoked_at" IS NULL;
