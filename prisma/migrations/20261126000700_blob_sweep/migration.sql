-- The blob store's objects are content-addressed and shared by every row that holds the same bytes
-- (attachments, example versions' files). blob_keys knows each object: when it was last put, and
-- since when a row that held it is gone. A worker task (server/blobs/sweep.ts) deletes an object
-- once no row holds it and it was not put within the grace period; it locks the key's row while it
-- checks and deletes, so an upload of the same bytes (which updates put_at first) waits or is seen.
CREATE TABLE "blob_keys" (
  "blob_key" TEXT PRIMARY KEY,
  "put_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "orphaned_since" TIMESTAMPTZ
);
CREATE INDEX "blob_keys_orphaned" ON "blob_keys" ("orphaned_since") WHERE "orphaned_since" IS NOT NULL;
CREATE INDEX "attachments_blob_key" ON "attachments" ("blob_key");

INSERT INTO "blob_keys" ("blob_key")
SELECT "blob_key" FROM "attachments"
UNION
SELECT f.value ->> 'blob_key' FROM "example_versions" v, jsonb_each(v."attachments") f WHERE f.value ? 'blob_key'
ON CONFLICT DO NOTHING;

CREATE FUNCTION "release_blob_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'attachments' THEN
    INSERT INTO blob_keys (blob_key, orphaned_since)
    SELECT DISTINCT o.blob_key, now() FROM old_rows o
    ON CONFLICT (blob_key) DO UPDATE SET orphaned_since = now();
  ELSE
    INSERT INTO blob_keys (blob_key, orphaned_since)
    SELECT DISTINCT f.value ->> 'blob_key', now() FROM old_rows o, jsonb_each(o.attachments) f WHERE f.value ? 'blob_key'
    ON CONFLICT (blob_key) DO UPDATE SET orphaned_since = now();
  END IF;
  RETURN NULL;
END $$;

-- Deleted rows (cascades from runs and projects included) and replaced attachments release their keys.
CREATE TRIGGER "attachments_release_on_delete" AFTER DELETE ON "attachments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "release_blob_keys"();
CREATE TRIGGER "attachments_release_on_update" AFTER UPDATE ON "attachments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "release_blob_keys"();
CREATE TRIGGER "example_versions_release_on_delete" AFTER DELETE ON "example_versions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "release_blob_keys"();
