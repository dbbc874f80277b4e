-- Percentiles and feedback by run name, model and provider from the rollups, with ingest writing
-- (almost) what it wrote.
--
-- The sketch delta rows the triggers append (run_sketches, `merged` false) now carry the run's name,
-- model and provider. Their statement already grouped rows per bin — and latency, token and cost
-- bins are nearly one per run — so a batch appends about as many rows as before, a little wider.
-- The fold (rollup_fold_run_sketches, in the background) then writes, beside the coarse merged rows
-- (name, model and provider null, as before), one row per single dimension into run_dim_sketches:
-- for the name, the model and the provider of each delta row, per hour (`span` 1), per UTC day
-- (24) and for all time (0). Readers filtering or grouping by one of those dimensions add the
-- merged rows of run_dim_sketches of that dimension and the unmerged delta rows of run_sketches
-- (which carry all three); see server/runs/rollups/measures.ts.
--
-- In run_dim_sketches exactly one of name, model and provider is the row's value (the one `dim`
-- names; model and provider may be null as on the run), the other two are null, so a filter
-- compiled for runs (`b.name = …`) applies unchanged to the rows of its dimension.

ALTER TABLE "run_sketches" ADD COLUMN "name" TEXT, ADD COLUMN "model" TEXT, ADD COLUMN "provider" TEXT;

CREATE TABLE "run_dim_sketches" (
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  -- 'name', 'model' or 'provider'
  "dim" TEXT NOT NULL,
  -- 1: an hour, 24: a UTC day, 0: all time (bucket_start '-infinity')
  "span" SMALLINT NOT NULL,
  "bucket_start" TIMESTAMPTZ(6) NOT NULL,
  "name" TEXT,
  "model" TEXT,
  "provider" TEXT,
  "metric" SMALLINT NOT NULL,
  "run_type" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "status" TEXT NOT NULL,
  "bin" INTEGER NOT NULL,
  "n" BIGINT NOT NULL
);
-- One row per key (the fold's ON CONFLICT), and the readers' index: a dimension's value is compared
-- before the metric and the bins.
CREATE UNIQUE INDEX "run_dim_sketches_key" ON "run_dim_sketches"
  ("workspace_id", "project_id", "dim", "span", "bucket_start", "name", "model", "provider", "metric", "run_type", "is_root", "status", "bin")
  NULLS NOT DISTINCT;
CREATE INDEX "run_dim_sketches_empty_idx" ON "run_dim_sketches" ("workspace_id") WHERE "n" = 0;

-- (as in 20261126000400_rollups, the sketch rows carrying name, model and provider)
CREATE OR REPLACE FUNCTION rollup_runs_sql(src TEXT, trace_only BOOLEAN DEFAULT false) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
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
INSERT INTO run_sketches (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, metric, bin, n)
  SELECT workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, m.metric, rollup_bin(m.x), sum(sign)
  FROM g CROSS JOIN LATERAL (VALUES %2$s(5::smallint, g.tk_total_tokens::float8), (6::smallint, g.tk_total_cost::float8)) m(metric, x)
  WHERE m.x IS NOT NULL
  GROUP BY workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, m.metric, rollup_bin(m.x)
  HAVING sum(sign) <> 0 AND EXISTS (SELECT 1 FROM projects p WHERE p.id = g.project_id)
$q$, src, CASE WHEN trace_only THEN '' ELSE '(1::smallint, g.latency_ms), (2::smallint, g.first_token_s),
  (3::smallint, g.total_tokens::float8), (4::smallint, g.total_cost::float8), ' END)
$f$;

-- The fold of sketch delta rows: the coarse merged rows as before (hour and all time), and the rows
-- of each single dimension (hour, day and all time). One statement, so a reader sees a delta row
-- either unmerged or in both.
CREATE OR REPLACE FUNCTION rollup_fold_run_sketches(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS MATERIALIZED (DELETE FROM run_sketches WHERE ctid = ANY(batch) RETURNING *),
  coarse AS (
    INSERT INTO run_sketches (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin, merged, n)
    SELECT f.workspace_id, f.project_id, t.bucket_start, f.metric, f.run_type, f.is_root, f.status, f.bin, true, sum(f.n)
    FROM fresh f CROSS JOIN LATERAL (VALUES (f.bucket_start), ('-infinity'::timestamptz)) t(bucket_start)
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin) WHERE merged DO UPDATE SET
      n = run_sketches.n + EXCLUDED.n)
  INSERT INTO run_dim_sketches (workspace_id, project_id, dim, span, bucket_start, name, model, provider, metric, run_type, is_root, status, bin, n)
  SELECT f.workspace_id, f.project_id, d.dim, t.span, t.bucket_start, d.name, d.model, d.provider, f.metric, f.run_type, f.is_root, f.status,
    f.bin, sum(f.n)
  FROM fresh f
  CROSS JOIN LATERAL (VALUES ('name', f.name, NULL::text, NULL::text), ('model', NULL, f.model, NULL), ('provider', NULL, NULL, f.provider))
    d(dim, name, model, provider)
  CROSS JOIN LATERAL (VALUES (1::smallint, f.bucket_start), (24::smallint, date_bin('1 day', f.bucket_start, TIMESTAMPTZ '1970-01-01 00:00:00+00')),
    (0::smallint, '-infinity'::timestamptz)) t(span, bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (workspace_id, project_id, dim, span, bucket_start, name, model, provider, metric, run_type, is_root, status, bin) DO UPDATE SET
    n = run_dim_sketches.n + EXCLUDED.n;
END $$;

-- Feedback alike: feedback_buckets' delta rows carry the run's name, model and provider, and the fold
-- writes feedback_dim_buckets per single dimension (hour, day, all time) beside the coarse rows.
ALTER TABLE "feedback_buckets" ADD COLUMN "name" TEXT, ADD COLUMN "model" TEXT, ADD COLUMN "provider" TEXT;

CREATE TABLE "feedback_dim_buckets" (
  "workspace_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "dim" TEXT NOT NULL,
  "span" SMALLINT NOT NULL,
  "bucket_start" TIMESTAMPTZ(6) NOT NULL,
  "name" TEXT,
  "model" TEXT,
  "provider" TEXT,
  "run_type" TEXT NOT NULL,
  "is_root" BOOLEAN NOT NULL,
  "status" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "value" TEXT,
  "n" BIGINT NOT NULL,
  "score_n" BIGINT NOT NULL,
  "score_sum" DOUBLE PRECISION NOT NULL,
  "score_sq" DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX "feedback_dim_buckets_key" ON "feedback_dim_buckets"
  ("workspace_id", "project_id", "dim", "span", "bucket_start", "name", "model", "provider", "run_type", "is_root", "status", "key", "value")
  NULLS NOT DISTINCT;
CREATE INDEX "feedback_dim_buckets_empty_idx" ON "feedback_dim_buckets" ("workspace_id") WHERE "n" = 0;

-- (as in 20261127000200_rollup_quarantine, with the run's name, model and provider)
CREATE OR REPLACE FUNCTION rollup_feedback_sql(src TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, name, model, provider, key, value,
  n, score_n, score_sum, score_sq)
SELECT * FROM (
  SELECT s.workspace_id, s.project_id, b.bucket_start, s.run_type, s.is_root, s.status, s.name, s.model, s.provider, s.key,
    rollup_feedback_value(s.value) AS value,
    sum(s.sign) AS n, coalesce(sum(s.sign) FILTER (WHERE s.score IS NOT NULL), 0) AS score_n,
    coalesce(sum(s.sign * s.score), 0) AS score_sum, coalesce(sum(s.sign * s.score * s.score), 0) AS score_sq
  FROM (%1$s) s
  CROSS JOIN LATERAL (VALUES (date_bin('1 hour', s.start_time, TIMESTAMPTZ '1970-01-01 00:00:00+00'))) b(bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
) a
WHERE (n, score_n, score_sum, score_sq) IS DISTINCT FROM (0, 0, 0, 0) AND EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id)
$q$, src)
$f$;

-- (as in 20261126000400_rollups, with the run's name, model and provider)
CREATE OR REPLACE FUNCTION rollup_feedback_of_runs(changed TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
  SELECT c.sign, c.workspace_id, c.project_id, c.start_time, c.run_type, c.is_root, c.status, c.name, c.model, c.provider,
    f.key, f.value, f.score
  FROM (%1$s) c CROSS JOIN LATERAL (SELECT * FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id) f
$q$, changed)
$f$;

-- (as in 20261127000000_rollup_empty_statements and 20261127000500_rollup_trigger_plans, with the
-- run's name, model and provider)
CREATE OR REPLACE FUNCTION rollup_feedback_changed() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows' END;
  of_runs TEXT := format($q$
    SELECT f.sign, r.workspace_id, r.project_id, r.start_time, r.run_type, r.is_root, r.status, r.name, r.model, r.provider,
      f.key, f.value, f.score
    FROM (%1$s) f CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.id = f.run_id AND r.workspace_id = f.workspace_id) r
  $q$, changed);
  found BOOLEAN;
BEGIN
  EXECUTE 'SELECT EXISTS (' || changed || ')' INTO found;
  IF NOT found THEN RETURN NULL; END IF;
  EXECUTE 'SELECT EXISTS (' || of_runs || ')' INTO found;
  IF found THEN EXECUTE rollup_feedback_sql(of_runs); END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION rollup_fold_feedback_buckets(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS MATERIALIZED (DELETE FROM feedback_buckets WHERE ctid = ANY(batch) RETURNING *),
  coarse AS (
    INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, merged,
      n, score_n, score_sum, score_sq)
    SELECT f.workspace_id, f.project_id, t.bucket_start, f.run_type, f.is_root, f.status, f.key, f.value, true,
      sum(f.n), sum(f.score_n), sum(f.score_sum), sum(f.score_sq)
    FROM fresh f CROSS JOIN LATERAL (VALUES (f.bucket_start), ('-infinity'::timestamptz)) t(bucket_start)
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value) WHERE merged DO UPDATE SET
      n = feedback_buckets.n + EXCLUDED.n, score_n = feedback_buckets.score_n + EXCLUDED.score_n,
      score_sum = feedback_buckets.score_sum + EXCLUDED.score_sum,
      score_sq = feedback_buckets.score_sq + EXCLUDED.score_sq)
  INSERT INTO feedback_dim_buckets (workspace_id, project_id, dim, span, bucket_start, name, model, provider, run_type, is_root, status,
    key, value, n, score_n, score_sum, score_sq)
  SELECT f.workspace_id, f.project_id, d.dim, t.span, t.bucket_start, d.name, d.model, d.provider, f.run_type, f.is_root, f.status,
    f.key, f.value, sum(f.n), sum(f.score_n), sum(f.score_sum), sum(f.score_sq)
  FROM fresh f
  CROSS JOIN LATERAL (VALUES ('name', f.name, NULL::text, NULL::text), ('model', NULL, f.model, NULL), ('provider', NULL, NULL, f.provider))
    d(dim, name, model, provider)
  CROSS JOIN LATERAL (VALUES (1::smallint, f.bucket_start), (24::smallint, date_bin('1 day', f.bucket_start, TIMESTAMPTZ '1970-01-01 00:00:00+00')),
    (0::smallint, '-infinity'::timestamptz)) t(span, bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (workspace_id, project_id, dim, span, bucket_start, name, model, provider, run_type, is_root, status, key, value) DO UPDATE SET
    n = feedback_dim_buckets.n + EXCLUDED.n, score_n = feedback_dim_buckets.score_n + EXCLUDED.score_n,
    score_sum = feedback_dim_buckets.score_sum + EXCLUDED.score_sum,
    score_sq = feedback_dim_buckets.score_sq + EXCLUDED.score_sq;
END $$;

-- (as in 20261127000200_rollup_quarantine, and the dimension rows that add up to nothing leave too)
CREATE OR REPLACE FUNCTION rollup_compact(max_rows INTEGER DEFAULT 50000, OUT folded INTEGER, OUT quarantined TEXT[]) LANGUAGE plpgsql AS $$
DECLARE
  tbl TEXT;
  batch tid[];
BEGIN
  folded := 0;
  quarantined := '{}';
  IF NOT pg_try_advisory_xact_lock(hashtext('rollup_compact')) THEN RETURN; END IF;
  FOREACH tbl IN ARRAY ARRAY['run_buckets', 'run_sketches', 'feedback_buckets'] LOOP
    EXECUTE format('SELECT ARRAY(SELECT ctid FROM %I WHERE NOT merged AND NOT quarantined LIMIT $1)', tbl) INTO batch USING max_rows;
    folded := greatest(folded, cardinality(batch));
    quarantined := quarantined || rollup_fold_isolating(tbl, batch);
    -- Keys that add up to nothing leave (through the partial index on empty merged rows).
    EXECUTE format('DELETE FROM %I WHERE merged AND %I = 0', tbl, CASE tbl WHEN 'run_buckets' THEN 'runs' ELSE 'n' END);
  END LOOP;
  DELETE FROM run_dim_sketches WHERE n = 0;
  DELETE FROM feedback_dim_buckets WHERE n = 0;
END $$;

-- (as in 20261126000400_rollups, with the dimension sketches)
CREATE OR REPLACE FUNCTION rollup_projects_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Not while a compaction runs: it could write back merged rows of these projects.
  PERFORM pg_advisory_xact_lock(hashtext('rollup_compact'));
  DELETE FROM run_buckets b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM run_sketches b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM run_dim_sketches b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM feedback_buckets b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  DELETE FROM feedback_dim_buckets b USING old_rows o WHERE b.workspace_id = o.workspace_id AND b.project_id = o.id;
  RETURN NULL;
END $$;

-- The insert triggers hold the generators' statements as static SQL (20261126000400_rollups,
-- 20261127000200_rollup_quarantine, 20261127000500_rollup_trigger_plans): written again from the
-- new generator, with the same planner settings. The other trigger functions and the month drop
-- EXECUTE the generator, which reads the new definition.
DO $do$ BEGIN
  EXECUTE format($f$CREATE OR REPLACE FUNCTION rollup_runs_inserted() RETURNS trigger LANGUAGE plpgsql
    SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS %L$f$,
    'BEGIN ' || rollup_runs_sql(rollup_with_totals('SELECT 1 AS sign, * FROM new_rows')) || ';
      IF EXISTS (SELECT 1 FROM new_rows c WHERE EXISTS (SELECT 1 FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id)) THEN '
      || rollup_feedback_sql(rollup_feedback_of_runs('SELECT 1 AS sign, * FROM new_rows')) || '; END IF;
      RETURN NULL; END');
  EXECUTE format($f$CREATE OR REPLACE FUNCTION rollup_trace_totals_inserted() RETURNS trigger LANGUAGE plpgsql
    SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS %L$f$,
    'BEGIN ' || rollup_runs_sql(rollup_trace_roots(
      'SELECT workspace_id, trace_id, NULL::bigint AS prompt_tokens, NULL::bigint AS completion_tokens, NULL::bigint AS total_tokens,
         NULL::numeric AS prompt_cost, NULL::numeric AS completion_cost, NULL::numeric AS total_cost FROM new_rows',
      'SELECT workspace_id, trace_id, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost FROM new_rows'),
      true) || '; RETURN NULL; END');
END $do$;

-- The sketches and feedback buckets stored so far carry no dimensions: they are computed again from
-- the runs and their feedback (the run buckets too, from the same statement), under the fold's lock,
-- and folded.
SELECT pg_advisory_xact_lock(hashtext('rollup_compact'));
DELETE FROM run_buckets;
DELETE FROM run_sketches;
DELETE FROM feedback_buckets;
DO $$ BEGIN
  EXECUTE rollup_runs_sql(rollup_with_totals('SELECT 1 AS sign, * FROM runs'));
  EXECUTE rollup_feedback_sql(rollup_feedback_of_runs('SELECT 1 AS sign, * FROM runs'));
  WHILE (SELECT folded FROM rollup_compact()) >= 50000 LOOP END LOOP;
END $$;
