-- Roles that fit a team and an audit trail (issue 37).

-- The annotator role: reads like a viewer, leaves feedback, reviews the queues it is assigned to.
ALTER TABLE "memberships" DROP CONSTRAINT IF EXISTS "memberships_role_check";
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_check" CHECK ("role" IN ('admin', 'member', 'viewer', 'annotator'));
ALTER TABLE "invites" DROP CONSTRAINT IF EXISTS "invites_role_check";
ALTER TABLE "invites" ADD CONSTRAINT "invites_role_check" CHECK ("role" IN ('admin', 'member', 'viewer', 'annotator'));

-- The users assigned to review a queue: an annotator reviews only these queues.
CREATE TABLE "annotation_queue_reviewers" (
  "queue_id" UUID NOT NULL REFERENCES "annotation_queues" ("id") ON DELETE CASCADE,
  "user_id" UUID NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("queue_id", "user_id")
);
CREATE INDEX "annotation_queue_reviewers_user_id_idx" ON "annotation_queue_reviewers" ("user_id");

-- How long a workspace keeps its audit trail.
ALTER TABLE "workspaces" ADD COLUMN "audit_retention_days" INTEGER NOT NULL DEFAULT 365
  CHECK ("audit_retention_days" BETWEEN 1 AND 3650);

-- Who changed what, append-only. No foreign key to workspaces: the trail outlives what it describes.
-- `workspace_id` is null only for a failed sign-in with an address no account has.
CREATE TABLE "audit_log" (
  "id" UUID PRIMARY KEY,
  -- The order entries were written in: the list's cursor.
  "seq" BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
  "at" TIMESTAMPTZ(6) NOT NULL DEFAULT clock_timestamp(),
  "workspace_id" UUID,
  "actor_kind" TEXT NOT NULL CHECK ("actor_kind" IN ('user', 'api_key', 'anonymous', 'system')),
  "actor_id" TEXT,
  "actor_label" TEXT,
  "ip" TEXT,
  "action" TEXT NOT NULL,
  "target_type" TEXT,
  "target_id" TEXT,
  "before" JSONB,
  "after" JSONB
);
CREATE INDEX "audit_log_workspace_seq_idx" ON "audit_log" ("workspace_id", "seq" DESC);
CREATE INDEX "audit_log_workspace_at_idx" ON "audit_log" ("workspace_id", "at");

-- Entries are never changed, and deleted only by the retention purge: `purge_audit_log` sets a
-- transaction-local flag, and even then the trigger lets go only of entries older than their
-- workspace's retention, so a caller who sets the flag by hand still cannot erase recent history.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keep_days INTEGER;
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('tracelight.audit_purge', true) = 'on' THEN
    SELECT w."audit_retention_days" INTO keep_days FROM "workspaces" w WHERE w."id" = OLD."workspace_id";
    IF OLD."at" < now() - make_interval(days => coalesce(keep_days, 365)) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();

CREATE FUNCTION "audit_log_no_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_no_truncate"();

-- The retention purge: deletes up to `batch` expired entries of one workspace (null: the entries
-- of no workspace, kept 365 days), answers how many.
CREATE FUNCTION "purge_audit_log"(target UUID, batch INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  removed INTEGER;
BEGIN
  PERFORM set_config('tracelight.audit_purge', 'on', true);
  DELETE FROM "audit_log" a WHERE a."id" IN (
    SELECT e."id" FROM "audit_log" e LEFT JOIN "workspaces" w ON w."id" = e."workspace_id"
    WHERE e."workspace_id" IS NOT DISTINCT FROM target
      AND e."at" < now() - make_interval(days => coalesce(w."audit_retention_days", 365))
    LIMIT batch);
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('tracelight.audit_purge', 'off', true);
  RETURN removed;
END;
$$;
