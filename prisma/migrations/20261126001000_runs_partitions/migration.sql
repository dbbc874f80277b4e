-- Runs partitioned by time, so that a month whose runs have all outlived their retention is
-- dropped whole instead of deleted row by row (server/runs/partitions.ts).
--
-- The partition key is the run's id itself: the SDKs make it a UUIDv7 from the run's start time
-- (its first 48 bits are that instant in Unix milliseconds), so ranges of ids are ranges of time,
-- and the primary key, `ON CONFLICT (id)`, the foreign keys and the global "id used by another
-- workspace" check stay as they were (a key of start_time would have to join every unique index,
-- and a patch arriving before its post could not know its partition). Partitions:
--   runs_before   ids below 2020-01 (OpenTelemetry spans: 00000000-0000-0000-<span id>)
--   runs_yYYYYmMM one per month, created ahead of time by runs_add_month()
--   runs_far      ids from 2100-01 (most random UUIDv4 ids: their first bits are a "time" past 2100)
--   runs_default  the rest (a UUIDv4 whose first bits fall in 2020–2099 outside the months made,
--                 a run sent with an id of a month that has no partition)

-- The least run id of the instant `t` (a UUIDv7 bound).
CREATE FUNCTION run_id_floor(t TIMESTAMPTZ) RETURNS UUID LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') || repeat('0', 20))::uuid
$$;

-- Adds the partition of the month starting at `month` (a first of the month, UTC) unless it exists.
-- Runs already in runs_default with ids of that month move into it unchanged, with the attachment,
-- annotation-queue and review rows that refer to them: they are taken out and put back through the
-- partitions themselves, where no statement trigger of `runs` fires, so the rollups do not count
-- the move. Answers whether it made the partition.
CREATE FUNCTION runs_add_month(month DATE) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  part TEXT := 'runs_' || to_char(month, '"y"YYYY"m"MM');
  lo UUID := run_id_floor(month::timestamp AT TIME ZONE 'UTC');
  hi UUID := run_id_floor((month + INTERVAL '1 month')::timestamp AT TIME ZONE 'UTC');
  moved BIGINT;
BEGIN
  -- One change of the partitions at a time, whichever instance makes it.
  PERFORM pg_advisory_xact_lock(hashtext('runs_partitions'));
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  -- Making a partition locks `runs` whole (and the default partition, which is checked); taken
  -- first, in the order ingest takes them, so that no writer holds one while waiting for the other.
  LOCK TABLE runs IN ACCESS EXCLUSIVE MODE;
  CREATE TEMP TABLE runs_moving AS SELECT * FROM runs_default WHERE id >= lo AND id < hi;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    CREATE TEMP TABLE attachments_moving AS SELECT a.* FROM attachments a WHERE a.run_id IN (SELECT id FROM runs_moving);
    CREATE TEMP TABLE queue_runs_moving AS SELECT q.* FROM annotation_queue_runs q WHERE q.run_id IN (SELECT id FROM runs_moving);
    CREATE TEMP TABLE reviews_moving AS
      SELECT v.* FROM annotation_queue_reviews v WHERE v.queue_run_id IN (SELECT id FROM queue_runs_moving);
    DELETE FROM runs_default WHERE id >= lo AND id < hi;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF runs FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  IF moved > 0 THEN
    EXECUTE format('INSERT INTO %I SELECT * FROM runs_moving', part);
    INSERT INTO annotation_queue_runs SELECT * FROM queue_runs_moving;
    INSERT INTO annotation_queue_reviews SELECT * FROM reviews_moving;
    INSERT INTO attachments SELECT * FROM attachments_moving;
    DROP TABLE attachments_moving, queue_runs_moving, reviews_moving;
  END IF;
  DROP TABLE runs_moving;
  RETURN true;
END $$;

-- The month of a UUIDv7 run id (null for other ids).
CREATE FUNCTION run_id_month(id UUID) RETURNS DATE LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN substr(id::text, 15, 1) = '7' THEN
    date_trunc('month', to_timestamp(('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0) AT TIME ZONE 'UTC')::date
  END
$$;

CREATE TABLE "runs_partitioned" (LIKE "runs" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");
CREATE TABLE "runs_before" PARTITION OF "runs_partitioned" FOR VALUES FROM (MINVALUE) TO (run_id_floor('2020-01-01 00:00:00+00'));
CREATE TABLE "runs_far" PARTITION OF "runs_partitioned" FOR VALUES FROM (run_id_floor('2100-01-01 00:00:00+00')) TO (MAXVALUE);
CREATE TABLE "runs_default" PARTITION OF "runs_partitioned" DEFAULT;

-- What refers to runs lets go of the old table, which makes way for the new one.
DROP VIEW "tracelight_sql"."runs";
ALTER TABLE "attachments" DROP CONSTRAINT "attachments_run_id_fkey";
ALTER TABLE "annotation_queue_runs" DROP CONSTRAINT "annotation_queue_runs_run_id_fkey";
ALTER TABLE "runs" RENAME TO "runs_unpartitioned";
ALTER TABLE "runs_partitioned" RENAME TO "runs";

-- A partition for every month that holds a UUIDv7 run since 2020, and this month and the next two.
SELECT runs_add_month(m) FROM (
  SELECT DISTINCT run_id_month(id) AS m FROM "runs_unpartitioned"
  UNION SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k))::date FROM generate_series(0, 2) k
) months WHERE m >= DATE '2020-01-01' AND m < DATE '2100-01-01' ORDER BY m;

-- The rows, before any index or trigger (the rollups already count them). Runs of projects deleted
-- before deletions cascaded (see 20261125000100_project_cascades) cannot be reached and stay behind.
INSERT INTO "runs" SELECT u.* FROM "runs_unpartitioned" u
WHERE EXISTS (SELECT 1 FROM "projects" p WHERE p."workspace_id" = u."workspace_id" AND p."id" = u."project_id");
DROP TABLE "runs_unpartitioned";

ALTER TABLE "runs" ADD CONSTRAINT "runs_pkey" PRIMARY KEY ("id");
ALTER TABLE "runs" ADD CONSTRAINT "runs_project_fkey"
  FOREIGN KEY ("workspace_id", "project_id") REFERENCES "projects" ("workspace_id", "id") ON DELETE CASCADE;
CREATE INDEX "runs_workspace_id_project_id_start_time_id_idx" ON "runs" ("workspace_id", "project_id", "start_time" DESC, "id");
CREATE INDEX "runs_root_workspace_id_project_id_start_time_id_idx" ON "runs" ("workspace_id", "project_id", "start_time" DESC, "id") WHERE "is_root";
CREATE INDEX "runs_thread_idx" ON "runs" ("workspace_id", "project_id", "thread_id", "start_time") WHERE "thread_id" IS NOT NULL;
CREATE INDEX "runs_trace_id_idx" ON "runs" ("trace_id");
CREATE INDEX "runs_parent_run_id_idx" ON "runs" ("parent_run_id");
CREATE INDEX "runs_placement_pending_idx" ON "runs" ("parent_run_id") WHERE "placement_pending";
CREATE INDEX "runs_tags_idx" ON "runs" USING gin ("tags");
CREATE INDEX "runs_extra_idx" ON "runs" USING gin ("extra" jsonb_path_ops);
-- The search index where pg_trgm is installed (20261123000400_runs_query), on the same expression.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $idx$CREATE INDEX "runs_search_trgm_idx" ON "runs" USING GIN ((("name" || ' ' || coalesce("error", '') || ' ' || coalesce("inputs"::text, '') || ' ' || coalesce("outputs"::text, ''))) gin_trgm_ops)$idx$;
  END IF;
END $$;

ALTER TABLE "attachments" ADD CONSTRAINT "attachments_run_id_fkey"
  FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE NOT VALID;
ALTER TABLE "annotation_queue_runs" ADD CONSTRAINT "annotation_queue_runs_run_id_fkey"
  FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE NOT VALID;

CREATE TRIGGER "runs_rollup_insert" AFTER INSERT ON "runs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_inserted();
CREATE TRIGGER "runs_rollup_update" AFTER UPDATE ON "runs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_changed();
CREATE TRIGGER "runs_rollup_delete" AFTER DELETE ON "runs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_changed();

-- Read-only SQL (20261126000600_sql_views) over the new table, as before.
CREATE VIEW "tracelight_sql"."runs" AS
SELECT id, trace_id, parent_run_id, project_id, is_root, name, run_type, status, start_time, end_time,
       latency_ms, first_token_time, inputs, outputs, error, extra -> 'metadata' AS metadata, extra, tags,
       thread_id, model, provider, prompt_tokens, completion_tokens, total_tokens, prompt_cost,
       completion_cost, total_cost, reference_example_id, dotted_order
FROM "runs";
GRANT SELECT (id, trace_id, parent_run_id, project_id, workspace_id, is_root, name, run_type, status, start_time,
              end_time, latency_ms, first_token_time, inputs, outputs, error, extra, tags, thread_id, model,
              provider, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost,
              total_cost, reference_example_id, dotted_order) ON "runs" TO tracelight_sql_owner;
ALTER VIEW "tracelight_sql"."runs" OWNER TO tracelight_sql_owner;
GRANT SELECT ON "tracelight_sql"."runs" TO tracelight_sql_reader;
ALTER TABLE "runs" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "sql_scope" ON "runs" FOR SELECT TO tracelight_sql_owner USING (
  workspace_id = (SELECT s.workspace_id FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())
  AND project_id = ANY ((SELECT s.project_ids FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())::uuid[])
);

-- A month's partition leaves `runs` in two steps, each its own transaction (server/runs/partitions.ts
-- calls them when every run of the month has outlived its retention):
-- runs_detach_month: the month's attachment records and queue items are deleted (the blob sweep
-- frees the files), then the partition is detached — the one moment `runs` is locked whole.
CREATE FUNCTION runs_detach_month(month DATE) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  part TEXT := 'runs_' || to_char(month, '"y"YYYY"m"MM');
  lo UUID := run_id_floor(month::timestamp AT TIME ZONE 'UTC');
  hi UUID := run_id_floor((month + INTERVAL '1 month')::timestamp AT TIME ZONE 'UTC');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('runs_partitions'));
  IF NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass(part) AND inhparent = 'runs'::regclass) THEN RETURN false; END IF;
  DELETE FROM attachments WHERE run_id >= lo AND run_id < hi;
  DELETE FROM annotation_queue_runs WHERE run_id >= lo AND run_id < hi;
  EXECUTE format('ALTER TABLE runs DETACH PARTITION %I', part);
  RETURN true;
END $$;

-- runs_drop_detached: what the detached month's runs still hold elsewhere goes — their
-- contributions to the rollups (one pass over the month, the triggers' own statements), their
-- traces' totals and extension marks, and the traces' runs in later months — and the table is
-- dropped. Until then the rollups still count the month; a process stopped in between leaves the
-- detached table to the next call.
CREATE FUNCTION runs_drop_detached(month DATE) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  part TEXT := 'runs_' || to_char(month, '"y"YYYY"m"MM');
  this_month TEXT := 'SELECT -1 AS sign, * FROM ' || quote_ident(part);
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('runs_partitions'));
  IF to_regclass(part) IS NULL OR (SELECT relispartition FROM pg_class WHERE oid = to_regclass(part)) THEN RETURN false; END IF;
  -- With the traces' totals still there, as the rollups counted the roots.
  EXECUTE rollup_runs_sql(rollup_with_totals(this_month));
  EXECUTE rollup_feedback_sql(rollup_feedback_of_runs(this_month));
  -- The totals' trigger finds no root in `runs` any more: it changes nothing.
  EXECUTE format('DELETE FROM trace_totals t USING %I d WHERE d.is_root AND t.workspace_id = d.workspace_id AND t.trace_id = d.trace_id', part);
  EXECUTE format('DELETE FROM extended_traces t USING %I d WHERE d.is_root AND t.workspace_id = d.workspace_id AND t.trace_id = d.trace_id', part);
  EXECUTE format('DELETE FROM runs r USING %I d WHERE d.is_root AND r.workspace_id = d.workspace_id AND r.trace_id = d.trace_id', part);
  EXECUTE format('DROP TABLE %I', part);
  RETURN true;
END $$;
