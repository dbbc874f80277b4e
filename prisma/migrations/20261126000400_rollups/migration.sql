-- Analytics rollups: statistics and charts read time buckets, not runs.
--
-- Three tables hold what the runs and their feedback add up to, per hour (`bucket_start`) and for
-- all time (`bucket_start` = '-infinity'), keyed by the dimensions a filter may name:
--   run_buckets       exact counts and sums per project, hour, run type, root flag, status, name,
--                     model and provider;
--   run_sketches      mergeable log-scale histograms (relative error at most 1 %) of latency, time
--                     to first token, tokens and cost per project, hour, run type, root flag, status;
--   feedback_buckets  feedback count, score sums and string-value counts per key, by the run's
--                     project, hour, run type, root flag and status.
--
-- They are kept by statement-level triggers, in the transaction of the statement that changed a
-- run, a trace's totals or a feedback row: every change takes the old rows' contribution out and
-- puts the new rows' in, so a patch, a late parent, a repaired placement or a deletion (cascades
-- included) keeps them exact. A trigger only appends hourly delta rows (`merged` false), so
-- concurrent ingest never waits on a shared counter row; `rollup_compact()` folds the deltas into
-- one merged row per key, for their hour and for all time, out of the request path. Readers add up
-- merged and delta rows alike (all time: the merged all-time rows and every delta row).
--
-- A root run counts its trace's tokens and costs (`trace_*`, from trace_totals) as its wire answer
-- does, so a change of trace_totals moves the root's contribution too. The invariant each trigger
-- keeps: the buckets equal the sum of contributions of the rows stored now; no statement changes
-- two of runs, trace_totals and feedback at once.

CREATE TABLE "run_buckets" (
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "bucket_start" TIMESTAMPTZ(6) NOT NULL,
  "run_type" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "status" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "model" TEXT,
  "provider" TEXT,
  "merged" BOOLEAN NOT NULL DEFAULT false,
  "runs" BIGINT NOT NULL,
  "streaming_runs" BIGINT NOT NULL,
  "prompt_tokens" BIGINT NOT NULL,
  "completion_tokens" BIGINT NOT NULL,
  "total_tokens" BIGINT NOT NULL,
  "prompt_cost" NUMERIC NOT NULL,
  "completion_cost" NUMERIC NOT NULL,
  "total_cost" NUMERIC NOT NULL,
  "prompt_cost_runs" BIGINT NOT NULL,
  "completion_cost_runs" BIGINT NOT NULL,
  "total_cost_runs" BIGINT NOT NULL,
  "trace_prompt_tokens" BIGINT NOT NULL,
  "trace_completion_tokens" BIGINT NOT NULL,
  "trace_total_tokens" BIGINT NOT NULL,
  "trace_prompt_cost" NUMERIC NOT NULL,
  "trace_completion_cost" NUMERIC NOT NULL,
  "trace_total_cost" NUMERIC NOT NULL,
  "trace_prompt_cost_runs" BIGINT NOT NULL,
  "trace_completion_cost_runs" BIGINT NOT NULL,
  "trace_total_cost_runs" BIGINT NOT NULL
);
CREATE INDEX "run_buckets_workspace_id_project_id_bucket_start_idx" ON "run_buckets" ("workspace_id", "project_id", "bucket_start");
-- The compaction finds a key's merged row through these (one merged row per key).
CREATE UNIQUE INDEX "run_buckets_merged_key" ON "run_buckets" ("workspace_id", "project_id", "bucket_start", "run_type", "is_root", "status", "name", "model", "provider")
  NULLS NOT DISTINCT WHERE "merged";
CREATE INDEX "run_buckets_empty_idx" ON "run_buckets" ("workspace_id") WHERE "merged" AND "runs" = 0;
CREATE INDEX "run_buckets_fresh_idx" ON "run_buckets" ("workspace_id", "project_id") WHERE NOT "merged";

CREATE TABLE "run_sketches" (
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "bucket_start" TIMESTAMPTZ(6) NOT NULL,
  "run_type" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "status" TEXT NOT NULL,
  -- 1 latency (ms), 2 time to first token (s), 3 total tokens, 4 total cost, 5 and 6 the trace's
  -- total tokens and cost (root runs).
  "metric" SMALLINT NOT NULL,
  -- rollup_bin(value): the log-scale bin, with codes of their own for zero and negative values.
  "bin" INTEGER NOT NULL,
  "merged" BOOLEAN NOT NULL DEFAULT false,
  "n" BIGINT NOT NULL
);
CREATE INDEX "run_sketches_workspace_id_project_id_bucket_start_idx" ON "run_sketches" ("workspace_id", "project_id", "bucket_start", "metric");
CREATE UNIQUE INDEX "run_sketches_merged_key" ON "run_sketches" ("workspace_id", "project_id", "bucket_start", "metric", "run_type", "is_root", "status", "bin")
  WHERE "merged";
CREATE INDEX "run_sketches_empty_idx" ON "run_sketches" ("workspace_id") WHERE "merged" AND "n" = 0;
CREATE INDEX "run_sketches_fresh_idx" ON "run_sketches" ("workspace_id", "project_id") WHERE NOT "merged";

CREATE TABLE "feedback_buckets" (
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "bucket_start" TIMESTAMPTZ(6) NOT NULL,
  "run_type" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "status" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  -- The value when it is a JSON string (counted per value), else null.
  "value" TEXT,
  "merged" BOOLEAN NOT NULL DEFAULT false,
  "n" BIGINT NOT NULL,
  "score_n" BIGINT NOT NULL,
  "score_sum" DOUBLE PRECISION NOT NULL,
  "score_sq" DOUBLE PRECISION NOT NULL
);
CREATE INDEX "feedback_buckets_workspace_id_project_id_bucket_start_idx" ON "feedback_buckets" ("workspace_id", "project_id", "bucket_start");
CREATE UNIQUE INDEX "feedback_buckets_merged_key" ON "feedback_buckets" ("workspace_id", "project_id", "bucket_start", "run_type", "is_root", "status", "key", "value")
  NULLS NOT DISTINCT WHERE "merged";
CREATE INDEX "feedback_buckets_empty_idx" ON "feedback_buckets" ("workspace_id") WHERE "merged" AND "n" = 0;
CREATE INDEX "feedback_buckets_fresh_idx" ON "feedback_buckets" ("workspace_id", "project_id") WHERE NOT "merged";

-- The sketch bin of a value: bins grow by gamma = 1.01 / 0.99, so the bin's estimate
-- 2 gamma^i / (gamma + 1) is within 1 % of every value in it. Zero and negative values have codes
-- of their own (server/rollups/sketch.ts decodes them).
CREATE FUNCTION rollup_bin(x DOUBLE PRECISION) RETURNS INTEGER LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x > 0 THEN ceil(ln(x) / ln(1.01 / 0.99))::int
              WHEN x = 0 THEN -1000000
              WHEN x < 0 THEN -2000000 - ceil(ln(-x) / ln(1.01 / 0.99))::int END
$$;

-- The statement adding the contributions of `src` to run_buckets and run_sketches. `src` yields
-- `sign` (1 to add, -1 to take out), the runs columns, and the trace's totals as tt_* (null when
-- the trace has none). `trace_only`: only the trace totals moved, so the other sketches are left
-- alone.
CREATE FUNCTION rollup_runs_sql(src TEXT, trace_only BOOLEAN DEFAULT false) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
WITH c AS MATERIALIZED (
  SELECT s.sign, s.workspace_id, s.project_id, s.start_time, s.run_type, s.is_root, s.status, s.name, s.model, s.provider,
    s.latency_ms, EXTRACT(EPOCH FROM (s.first_token_time - s.start_time))::float8 AS first_token_s,
    s.first_token_time IS NOT NULL AS streamed, s.prompt_tokens, s.completion_tokens, s.total_tokens,
    s.prompt_cost, s.completion_cost, s.total_cost,
    CASE WHEN s.is_root THEN coalesce(s.tt_prompt_tokens, s.prompt_tokens) END AS tk_prompt_tokens,
    CASE WHEN s.is_root THEN coalesce(s.tt_completion_tokens, s.completion_tokens) END AS tk_completion_tokens,
    CASE WHEN s.is_root THEN coalesce(s.tt_total_tokens, s.total_tokens) END AS tk_total_tokens,
    CASE WHEN s.is_root THEN coalesce(s.tt_prompt_cost, s.prompt_cost) END AS tk_prompt_cost,
    CASE WHEN s.is_root THEN coalesce(s.tt_completion_cost, s.completion_cost) END AS tk_completion_cost,
    CASE WHEN s.is_root THEN coalesce(s.tt_total_cost, s.total_cost) END AS tk_total_cost
  FROM (%1$s) s
), g AS MATERIALIZED (
  SELECT c.*, date_bin('1 hour', c.start_time, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket_start FROM c
), counted AS (
  INSERT INTO run_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider,
    runs, streaming_runs, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost,
    prompt_cost_runs, completion_cost_runs, total_cost_runs, trace_prompt_tokens, trace_completion_tokens, trace_total_tokens,
    trace_prompt_cost, trace_completion_cost, trace_total_cost, trace_prompt_cost_runs, trace_completion_cost_runs, trace_total_cost_runs)
  SELECT * FROM (
    SELECT workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider,
      sum(sign) AS runs, coalesce(sum(sign) FILTER (WHERE streamed), 0) AS streaming_runs,
      coalesce(sum(sign * prompt_tokens), 0) AS prompt_tokens, coalesce(sum(sign * completion_tokens), 0) AS completion_tokens,
      coalesce(sum(sign * total_tokens), 0) AS total_tokens,
      coalesce(sum(sign * prompt_cost), 0) AS prompt_cost, coalesce(sum(sign * completion_cost), 0) AS completion_cost,
      coalesce(sum(sign * total_cost), 0) AS total_cost,
      coalesce(sum(sign) FILTER (WHERE prompt_cost IS NOT NULL), 0) AS prompt_cost_runs,
      coalesce(sum(sign) FILTER (WHERE completion_cost IS NOT NULL), 0) AS completion_cost_runs,
      coalesce(sum(sign) FILTER (WHERE total_cost IS NOT NULL), 0) AS total_cost_runs,
      coalesce(sum(sign * tk_prompt_tokens), 0) AS tpt, coalesce(sum(sign * tk_completion_tokens), 0) AS tct,
      coalesce(sum(sign * tk_total_tokens), 0) AS ttt,
      coalesce(sum(sign * tk_prompt_cost), 0) AS tpc, coalesce(sum(sign * tk_completion_cost), 0) AS tcc,
      coalesce(sum(sign * tk_total_cost), 0) AS ttc,
      coalesce(sum(sign) FILTER (WHERE tk_prompt_cost IS NOT NULL), 0) AS tpcn,
      coalesce(sum(sign) FILTER (WHERE tk_completion_cost IS NOT NULL), 0) AS tccn,
      coalesce(sum(sign) FILTER (WHERE tk_total_cost IS NOT NULL), 0) AS ttcn
    FROM g GROUP BY workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider
  ) a
  WHERE (runs, streaming_runs, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost,
         prompt_cost_runs, completion_cost_runs, total_cost_runs, tpt, tct, ttt, tpc, tcc, ttc, tpcn, tccn, ttcn)
    IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    -- Runs of a project being deleted: its buckets go with it (rollup_projects_deleted).
    AND EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id)
)
INSERT INTO run_sketches (workspace_id, project_id, bucket_start, run_type, is_root, status, metric, bin, n)
  SELECT workspace_id, project_id, bucket_start, run_type, is_root, status, m.metric, rollup_bin(m.x), sum(sign)
  FROM g CROSS JOIN LATERAL (VALUES %2$s(5::smallint, g.tk_total_tokens::float8), (6::smallint, g.tk_total_cost::float8)) m(metric, x)
  WHERE m.x IS NOT NULL
  GROUP BY workspace_id, project_id, bucket_start, run_type, is_root, status, m.metric, rollup_bin(m.x)
  HAVING sum(sign) <> 0 AND EXISTS (SELECT 1 FROM projects p WHERE p.id = g.project_id)
$q$, src, CASE WHEN trace_only THEN '' ELSE '(1::smallint, g.latency_ms), (2::smallint, g.first_token_s),
  (3::smallint, g.total_tokens::float8), (4::smallint, g.total_cost::float8), ' END)
$f$;

-- The statement adding the feedback contributions of `src` to feedback_buckets: `sign`, the run's
-- workspace_id, project_id, start_time, run_type, is_root and status, and the feedback's key,
-- value and score.
CREATE FUNCTION rollup_feedback_sql(src TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, n, score_n, score_sum, score_sq)
SELECT * FROM (
  SELECT s.workspace_id, s.project_id, b.bucket_start, s.run_type, s.is_root, s.status, s.key,
    CASE WHEN jsonb_typeof(s.value) = 'string' THEN s.value #>> '{}' END AS value,
    sum(s.sign) AS n, coalesce(sum(s.sign) FILTER (WHERE s.score IS NOT NULL), 0) AS score_n,
    coalesce(sum(s.sign * s.score), 0) AS score_sum, coalesce(sum(s.sign * s.score * s.score), 0) AS score_sq
  FROM (%1$s) s
  CROSS JOIN LATERAL (VALUES (date_bin('1 hour', s.start_time, TIMESTAMPTZ '1970-01-01 00:00:00+00'))) b(bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
) a
WHERE (n, score_n, score_sum, score_sq) IS DISTINCT FROM (0, 0, 0, 0) AND EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id)
$q$, src)
$f$;

-- `changed` (sign and runs columns) with the trace totals of its root runs as tt_*.
CREATE FUNCTION rollup_with_totals(changed TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
  SELECT c.*, tt.prompt_tokens AS tt_prompt_tokens, tt.completion_tokens AS tt_completion_tokens, tt.total_tokens AS tt_total_tokens,
    tt.prompt_cost AS tt_prompt_cost, tt.completion_cost AS tt_completion_cost, tt.total_cost AS tt_total_cost
  FROM (%1$s) c
  LEFT JOIN LATERAL (SELECT * FROM trace_totals tt WHERE c.is_root AND tt.workspace_id = c.workspace_id AND tt.trace_id = c.trace_id) tt ON true
$q$, changed)
$f$;

-- The feedback on the runs of `changed` (sign and runs columns), for rollup_feedback_sql.
CREATE FUNCTION rollup_feedback_of_runs(changed TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
  SELECT c.sign, c.workspace_id, c.project_id, c.start_time, c.run_type, c.is_root, c.status, f.key, f.value, f.score
  FROM (%1$s) c CROSS JOIN LATERAL (SELECT * FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id) f
$q$, changed)
$f$;

-- Transition tables are visible to the trigger function's own statements only, so each trigger
-- function EXECUTEs the statements the functions above write. Every lookup into runs, trace_totals
-- and feedback is a LATERAL probe of an index per changed row: the planner cannot choose to scan
-- those tables, however it misjudges a transition table's size.
CREATE FUNCTION rollup_runs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    -- Only rows whose contribution may differ: an update of a run's text or previews costs nothing here.
    ELSE 'SELECT -1 AS sign, o.* FROM old_rows o JOIN new_rows n USING (id) WHERE ' || rollup_moved()
      || ' UNION ALL SELECT 1, n.* FROM old_rows o JOIN new_rows n USING (id) WHERE ' || rollup_moved() END;
  found BOOLEAN;
BEGIN
  -- An update often moves nothing that counts (the check costs less than the statement).
  IF TG_OP = 'UPDATE' THEN
    EXECUTE 'SELECT EXISTS (' || changed || ')' INTO found;
    IF NOT found THEN RETURN NULL; END IF;
  END IF;
  EXECUTE rollup_runs_sql(rollup_with_totals(changed));
  EXECUTE 'SELECT EXISTS (SELECT 1 FROM (' || changed || ') c WHERE EXISTS (SELECT 1 FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id))' INTO found;
  IF found THEN EXECUTE rollup_feedback_sql(rollup_feedback_of_runs(changed)); END IF;
  RETURN NULL;
END $$;

-- The condition (over old row o and new row n) under which a run's contribution may have changed.
CREATE FUNCTION rollup_moved() RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
SELECT '(o.workspace_id, o.project_id, o.trace_id, o.start_time, o.run_type, o.is_root, o.status, o.name, o.model, o.provider, o.latency_ms,
  o.first_token_time, o.prompt_tokens, o.completion_tokens, o.total_tokens, o.prompt_cost, o.completion_cost, o.total_cost)
  IS DISTINCT FROM (n.workspace_id, n.project_id, n.trace_id, n.start_time, n.run_type, n.is_root, n.status, n.name, n.model, n.provider,
  n.latency_ms, n.first_token_time, n.prompt_tokens, n.completion_tokens, n.total_tokens, n.prompt_cost, n.completion_cost, n.total_cost)'
$$;

-- A trace's totals changed: its root runs' trace_* contributions move from the old totals to the new.
CREATE FUNCTION rollup_trace_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols TEXT := 'workspace_id, trace_id, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost';
  nulls TEXT := 'workspace_id, trace_id, NULL::bigint AS prompt_tokens, NULL::bigint AS completion_tokens, NULL::bigint AS total_tokens,
    NULL::numeric AS prompt_cost, NULL::numeric AS completion_cost, NULL::numeric AS total_cost';
  -- An upsert rewrites every trace of a request: only the ones whose totals moved count.
  moved TEXT := ' FROM old_rows o JOIN new_rows n USING (workspace_id, trace_id) WHERE (o.prompt_tokens, o.completion_tokens,
    o.total_tokens, o.prompt_cost, o.completion_cost, o.total_cost) IS DISTINCT FROM (n.prompt_tokens, n.completion_tokens,
    n.total_tokens, n.prompt_cost, n.completion_cost, n.total_cost)';
  before TEXT := CASE TG_OP WHEN 'INSERT' THEN 'SELECT ' || nulls || ' FROM new_rows' WHEN 'DELETE' THEN 'SELECT ' || cols || ' FROM old_rows'
    ELSE 'SELECT workspace_id, trace_id, o.prompt_tokens, o.completion_tokens, o.total_tokens, o.prompt_cost, o.completion_cost, o.total_cost' || moved END;
  after TEXT := CASE TG_OP WHEN 'DELETE' THEN 'SELECT ' || nulls || ' FROM old_rows' WHEN 'INSERT' THEN 'SELECT ' || cols || ' FROM new_rows'
    ELSE 'SELECT workspace_id, trace_id, n.prompt_tokens, n.completion_tokens, n.total_tokens, n.prompt_cost, n.completion_cost, n.total_cost' || moved END;
  roots TEXT := format($q$
    SELECT t.sign, r.*, t.prompt_tokens AS tt_prompt_tokens, t.completion_tokens AS tt_completion_tokens, t.total_tokens AS tt_total_tokens,
      t.prompt_cost AS tt_prompt_cost, t.completion_cost AS tt_completion_cost, t.total_cost AS tt_total_cost
    FROM (SELECT -1 AS sign, * FROM (%1$s) b UNION ALL SELECT 1, * FROM (%2$s) a) t
    CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.trace_id = t.trace_id AND r.workspace_id = t.workspace_id AND r.is_root) r
  $q$, before, after);
  found BOOLEAN;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    EXECUTE 'SELECT EXISTS (' || roots || ')' INTO found;
    IF NOT found THEN RETURN NULL; END IF;
  END IF;
  EXECUTE rollup_runs_sql(roots, true);
  RETURN NULL;
END $$;

-- Feedback rows changed: their contributions, under their runs' dimensions, move.
CREATE FUNCTION rollup_feedback_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows' END;
  of_runs TEXT := format($q$
    SELECT f.sign, r.workspace_id, r.project_id, r.start_time, r.run_type, r.is_root, r.status, f.key, f.value, f.score
    FROM (%1$s) f CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.id = f.run_id AND r.workspace_id = f.workspace_id) r
  $q$, changed);
  found BOOLEAN;
BEGIN
  EXECUTE 'SELECT EXISTS (' || of_runs || ')' INTO found;
  IF found THEN EXECUTE rollup_feedback_sql(of_runs); END IF;
  RETURN NULL;
END $$;

-- A deleted project takes its buckets along. Its runs and feedback go by cascades whose triggers
-- may fire before or after this one; they skip rows of projects that no longer exist.
CREATE FUNCTION rollup_projects_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Not while a compaction runs: it could write back merged rows of these projects.
  PERFORM pg_advisory_xact_lock(hashtext('rollup_compact'));
  DELETE FROM run_buckets b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM run_sketches b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM feedback_buckets b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "projects_rollup_delete" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_projects_deleted();
-- Inserts are the hot path: their trigger functions hold the statements above as static SQL,
-- written out here from the same generators, so PL/pgSQL plans them once per connection.
DO $do$
DECLARE
  nulls TEXT := 'workspace_id, trace_id, NULL::bigint AS prompt_tokens, NULL::bigint AS completion_tokens, NULL::bigint AS total_tokens,
    NULL::numeric AS prompt_cost, NULL::numeric AS completion_cost, NULL::numeric AS total_cost';
  cols TEXT := 'workspace_id, trace_id, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost';
BEGIN
  EXECUTE format($f$CREATE FUNCTION rollup_runs_inserted() RETURNS trigger LANGUAGE plpgsql AS %L$f$,
    'BEGIN ' || rollup_runs_sql(rollup_with_totals('SELECT 1 AS sign, * FROM new_rows')) || ';
      IF EXISTS (SELECT 1 FROM new_rows c WHERE EXISTS (SELECT 1 FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id)) THEN '
      || rollup_feedback_sql(rollup_feedback_of_runs('SELECT 1 AS sign, * FROM new_rows')) || '; END IF;
      RETURN NULL; END');
  EXECUTE format($f$CREATE FUNCTION rollup_trace_totals_inserted() RETURNS trigger LANGUAGE plpgsql AS %L$f$,
    'BEGIN ' || rollup_runs_sql(format($q$
      SELECT t.sign, r.*, t.prompt_tokens AS tt_prompt_tokens, t.completion_tokens AS tt_completion_tokens, t.total_tokens AS tt_total_tokens,
        t.prompt_cost AS tt_prompt_cost, t.completion_cost AS tt_completion_cost, t.total_cost AS tt_total_cost
      FROM (SELECT -1 AS sign, * FROM (SELECT %1$s FROM new_rows) b UNION ALL SELECT 1, * FROM (SELECT %2$s FROM new_rows) a) t
      CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.trace_id = t.trace_id AND r.workspace_id = t.workspace_id AND r.is_root) r
    $q$, nulls, cols), true) || '; RETURN NULL; END');
END $do$;

CREATE TRIGGER "runs_rollup_insert" AFTER INSERT ON "runs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_inserted();
CREATE TRIGGER "runs_rollup_update" AFTER UPDATE ON "runs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_changed();
CREATE TRIGGER "runs_rollup_delete" AFTER DELETE ON "runs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_changed();
CREATE TRIGGER "trace_totals_rollup_insert" AFTER INSERT ON "trace_totals" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_trace_totals_inserted();
CREATE TRIGGER "trace_totals_rollup_update" AFTER UPDATE ON "trace_totals" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_trace_totals_changed();
CREATE TRIGGER "trace_totals_rollup_delete" AFTER DELETE ON "trace_totals" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_trace_totals_changed();
CREATE TRIGGER "feedback_rollup_insert" AFTER INSERT ON "feedback" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_feedback_changed();
CREATE TRIGGER "feedback_rollup_update" AFTER UPDATE ON "feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_feedback_changed();
CREATE TRIGGER "feedback_rollup_delete" AFTER DELETE ON "feedback" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rollup_feedback_changed();

-- Folds up to `max_rows` delta rows (hourly) of each table into one merged row per key, for their
-- hour and for all time (rows that add up to nothing disappear); answers the most rows it found in
-- a table, so a caller repeats while that is `max_rows`. One caller at a time (the others answer 0);
-- deltas of transactions still open are folded by a later call.
CREATE FUNCTION rollup_compact(max_rows INTEGER DEFAULT 50000) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  folded INTEGER := 0;
  pending INTEGER;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('rollup_compact')) THEN RETURN 0; END IF;
  -- Each key's merged row is found through the table's unique index on merged keys, one probe per
  -- key; keys that add up to nothing leave (through the partial index on empty merged rows).
  SELECT count(*) INTO pending FROM (SELECT 1 FROM run_buckets WHERE NOT merged LIMIT max_rows) x;
  folded := greatest(folded, pending);
  WITH fresh AS (DELETE FROM run_buckets WHERE ctid = ANY(ARRAY(SELECT ctid FROM run_buckets WHERE NOT merged LIMIT max_rows)) RETURNING *),
  spread AS (
    SELECT * FROM fresh UNION ALL
    SELECT r.* FROM fresh f CROSS JOIN LATERAL jsonb_populate_record(NULL::run_buckets, to_jsonb(f) || '{"bucket_start": "-infinity"}') r)
  INSERT INTO run_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, merged,
    runs, streaming_runs, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost,
    total_cost, prompt_cost_runs, completion_cost_runs, total_cost_runs, trace_prompt_tokens,
    trace_completion_tokens, trace_total_tokens, trace_prompt_cost, trace_completion_cost, trace_total_cost,
    trace_prompt_cost_runs, trace_completion_cost_runs, trace_total_cost_runs)
  SELECT workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, true,
    sum(runs), sum(streaming_runs), sum(prompt_tokens), sum(completion_tokens), sum(total_tokens),
    sum(prompt_cost), sum(completion_cost), sum(total_cost), sum(prompt_cost_runs),
    sum(completion_cost_runs), sum(total_cost_runs), sum(trace_prompt_tokens), sum(trace_completion_tokens),
    sum(trace_total_tokens), sum(trace_prompt_cost), sum(trace_completion_cost), sum(trace_total_cost),
    sum(trace_prompt_cost_runs), sum(trace_completion_cost_runs), sum(trace_total_cost_runs)
  FROM spread GROUP BY workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider
  ON CONFLICT (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider) WHERE merged DO UPDATE SET
    runs = run_buckets.runs + EXCLUDED.runs,
    streaming_runs = run_buckets.streaming_runs + EXCLUDED.streaming_runs,
    prompt_tokens = run_buckets.prompt_tokens + EXCLUDED.prompt_tokens,
    completion_tokens = run_buckets.completion_tokens + EXCLUDED.completion_tokens,
    total_tokens = run_buckets.total_tokens + EXCLUDED.total_tokens,
    prompt_cost = run_buckets.prompt_cost + EXCLUDED.prompt_cost,
    completion_cost = run_buckets.completion_cost + EXCLUDED.completion_cost,
    total_cost = run_buckets.total_cost + EXCLUDED.total_cost,
    prompt_cost_runs = run_buckets.prompt_cost_runs + EXCLUDED.prompt_cost_runs,
    completion_cost_runs = run_buckets.completion_cost_runs + EXCLUDED.completion_cost_runs,
    total_cost_runs = run_buckets.total_cost_runs + EXCLUDED.total_cost_runs,
    trace_prompt_tokens = run_buckets.trace_prompt_tokens + EXCLUDED.trace_prompt_tokens,
    trace_completion_tokens = run_buckets.trace_completion_tokens + EXCLUDED.trace_completion_tokens,
    trace_total_tokens = run_buckets.trace_total_tokens + EXCLUDED.trace_total_tokens,
    trace_prompt_cost = run_buckets.trace_prompt_cost + EXCLUDED.trace_prompt_cost,
    trace_completion_cost = run_buckets.trace_completion_cost + EXCLUDED.trace_completion_cost,
    trace_total_cost = run_buckets.trace_total_cost + EXCLUDED.trace_total_cost,
    trace_prompt_cost_runs = run_buckets.trace_prompt_cost_runs + EXCLUDED.trace_prompt_cost_runs,
    trace_completion_cost_runs = run_buckets.trace_completion_cost_runs + EXCLUDED.trace_completion_cost_runs,
    trace_total_cost_runs = run_buckets.trace_total_cost_runs + EXCLUDED.trace_total_cost_runs;
  DELETE FROM run_buckets WHERE merged AND runs = 0;
  SELECT count(*) INTO pending FROM (SELECT 1 FROM run_sketches WHERE NOT merged LIMIT max_rows) x;
  folded := greatest(folded, pending);
  WITH fresh AS (DELETE FROM run_sketches WHERE ctid = ANY(ARRAY(SELECT ctid FROM run_sketches WHERE NOT merged LIMIT max_rows)) RETURNING *),
  spread AS (
    SELECT * FROM fresh UNION ALL
    SELECT r.* FROM fresh f CROSS JOIN LATERAL jsonb_populate_record(NULL::run_sketches, to_jsonb(f) || '{"bucket_start": "-infinity"}') r)
  INSERT INTO run_sketches (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin, merged,
    n)
  SELECT workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin, true,
    sum(n)
  FROM spread GROUP BY workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin
  ON CONFLICT (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin) WHERE merged DO UPDATE SET
    n = run_sketches.n + EXCLUDED.n;
  DELETE FROM run_sketches WHERE merged AND n = 0;
  SELECT count(*) INTO pending FROM (SELECT 1 FROM feedback_buckets WHERE NOT merged LIMIT max_rows) x;
  folded := greatest(folded, pending);
  WITH fresh AS (DELETE FROM feedback_buckets WHERE ctid = ANY(ARRAY(SELECT ctid FROM feedback_buckets WHERE NOT merged LIMIT max_rows)) RETURNING *),
  spread AS (
    SELECT * FROM fresh UNION ALL
    SELECT r.* FROM fresh f CROSS JOIN LATERAL jsonb_populate_record(NULL::feedback_buckets, to_jsonb(f) || '{"bucket_start": "-infinity"}') r)
  INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, merged,
    n, score_n, score_sum, score_sq)
  SELECT workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, true,
    sum(n), sum(score_n), sum(score_sum), sum(score_sq)
  FROM spread GROUP BY workspace_id, project_id, bucket_start, run_type, is_root, status, key, value
  ON CONFLICT (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value) WHERE merged DO UPDATE SET
    n = feedback_buckets.n + EXCLUDED.n, score_n = feedback_buckets.score_n + EXCLUDED.score_n,
    score_sum = feedback_buckets.score_sum + EXCLUDED.score_sum,
    score_sq = feedback_buckets.score_sq + EXCLUDED.score_sq;
  DELETE FROM feedback_buckets WHERE merged AND n = 0;
  RETURN folded;
END $$;

-- The runs stored before this migration.
DO $$ BEGIN
  EXECUTE rollup_runs_sql(rollup_with_totals('SELECT 1 AS sign, * FROM runs'));
  EXECUTE rollup_feedback_sql(rollup_feedback_of_runs('SELECT 1 AS sign, * FROM runs'));
END $$;
DO $$ BEGIN
  WHILE rollup_compact() >= 50000 LOOP END LOOP;
END $$;
