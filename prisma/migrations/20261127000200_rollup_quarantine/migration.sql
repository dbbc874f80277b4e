-- One bad delta row must never stop the fold of the others (issue 35): rollup_compact() folded each
-- table in one statement, so a single row it could not fold (a key too long for the merged-key
-- index, a sum out of range) failed the whole fold, every time, for every workspace.
--
-- Now each table's batch is folded in a subtransaction; when that fails with a data error, each half
-- is tried on its own, down to single rows, and a row that cannot be folded alone is quarantined:
-- it stays a delta row (which readers add up like any other, so statistics stay exact) and later
-- folds skip it. rollup_compact() answers the rows it quarantined, so the caller logs each once and
-- counts it (server/runs/rollups/compact.ts). Other errors (a cancelled statement, a lost
-- connection) still fail the call, to be retried whole: they say nothing about a row.

ALTER TABLE "run_buckets" ADD COLUMN "quarantined" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "run_sketches" ADD COLUMN "quarantined" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "feedback_buckets" ADD COLUMN "quarantined" BOOLEAN NOT NULL DEFAULT false;

-- Folds the delta rows `batch` of each table into one merged row per key, for their hour and for all
-- time (the statements rollup_compact() ran until now, restricted to the rows given).
CREATE FUNCTION rollup_fold_run_buckets(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS (DELETE FROM run_buckets WHERE ctid = ANY(batch) RETURNING *),
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
END $$;

CREATE FUNCTION rollup_fold_run_sketches(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS (DELETE FROM run_sketches WHERE ctid = ANY(batch) RETURNING *),
  spread AS (
    SELECT * FROM fresh UNION ALL
    SELECT r.* FROM fresh f CROSS JOIN LATERAL jsonb_populate_record(NULL::run_sketches, to_jsonb(f) || '{"bucket_start": "-infinity"}') r)
  INSERT INTO run_sketches (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin, merged, n)
  SELECT workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin, true, sum(n)
  FROM spread GROUP BY workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin
  ON CONFLICT (workspace_id, project_id, bucket_start, metric, run_type, is_root, status, bin) WHERE merged DO UPDATE SET
    n = run_sketches.n + EXCLUDED.n;
END $$;

CREATE FUNCTION rollup_fold_feedback_buckets(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS (DELETE FROM feedback_buckets WHERE ctid = ANY(batch) RETURNING *),
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
END $$;

-- Folds `batch` of table `tbl` in a subtransaction; on a data error (SQLSTATE class 22) or a value
-- too large (class 54), its halves on their own, down to single rows. Answers the rows it
-- quarantined, one line each (table, workspace, project, the error). A batch with k bad rows costs
-- about k * log2(batch) failed attempts, not one subtransaction per row.
CREATE FUNCTION rollup_fold_isolating(tbl TEXT, batch tid[]) RETURNS TEXT[] LANGUAGE plpgsql AS $$
DECLARE
  reason TEXT;
  half INTEGER := cardinality(batch) / 2;
  line TEXT;
BEGIN
  IF cardinality(batch) = 0 THEN RETURN '{}'; END IF;
  BEGIN
    EXECUTE format('SELECT rollup_fold_%s($1)', tbl) USING batch;
    RETURN '{}';
  EXCEPTION WHEN data_exception OR program_limit_exceeded THEN
    reason := SQLERRM;
  END;
  IF cardinality(batch) > 1 THEN
    RETURN rollup_fold_isolating(tbl, batch[1:half]) || rollup_fold_isolating(tbl, batch[half + 1:]);
  END IF;
  EXECUTE format('UPDATE %I SET quarantined = true WHERE ctid = $1
    RETURNING format(%L, workspace_id, project_id, bucket_start)', tbl, tbl || ' workspace %s project %s hour %s: ')
    INTO line USING batch[1];
  RETURN ARRAY[line || left(reason, 200)];
END $$;

-- Folds up to `max_rows` delta rows of each table (see rollup_fold_isolating); answers the most rows
-- it found in a table, so a caller repeats while that is `max_rows`, and the rows it quarantined.
-- One caller at a time (the others answer 0); deltas of transactions still open are folded by a
-- later call.
DROP FUNCTION rollup_compact(INTEGER);
CREATE FUNCTION rollup_compact(max_rows INTEGER DEFAULT 50000, OUT folded INTEGER, OUT quarantined TEXT[]) LANGUAGE plpgsql AS $$
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
END $$;

-- A feedback value is counted per value (feedback_stats' `values`) only when it is a JSON string of
-- at most 1,500 bytes: with the key (at most 256 characters as stored, 768 bytes) it is the key of
-- feedback_buckets, whose index rows hold at most 2,704 bytes. A longer string is free text, not a
-- category: it counts in `n` like any feedback. The scans that answer what the buckets cannot
-- (server/runs/stats.ts, server/runs/rollups/measures.ts) count through this function too.
CREATE FUNCTION rollup_feedback_value(value JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'string' AND octet_length(value #>> '{}') <= 1500 THEN value #>> '{}' END
$$;

CREATE OR REPLACE FUNCTION rollup_feedback_sql(src TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
INSERT INTO feedback_buckets (workspace_id, project_id, bucket_start, run_type, is_root, status, key, value, n, score_n, score_sum, score_sq)
SELECT * FROM (
  SELECT s.workspace_id, s.project_id, b.bucket_start, s.run_type, s.is_root, s.status, s.key, rollup_feedback_value(s.value) AS value,
    sum(s.sign) AS n, coalesce(sum(s.sign) FILTER (WHERE s.score IS NOT NULL), 0) AS score_n,
    coalesce(sum(s.sign * s.score), 0) AS score_sum, coalesce(sum(s.sign * s.score * s.score), 0) AS score_sq
  FROM (%1$s) s
  CROSS JOIN LATERAL (VALUES (date_bin('1 hour', s.start_time, TIMESTAMPTZ '1970-01-01 00:00:00+00'))) b(bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
) a
WHERE (n, score_n, score_sum, score_sq) IS DISTINCT FROM (0, 0, 0, 0) AND EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id)
$q$, src)
$f$;

-- The insert trigger of runs holds the statements as static SQL (see 20261126000400_rollups): written
-- again from the generators, so it counts feedback values by the rule above too. The other trigger
-- functions run the generators' statements through EXECUTE, which reads the new definition.
DO $do$ BEGIN
  EXECUTE format($f$CREATE OR REPLACE FUNCTION rollup_runs_inserted() RETURNS trigger LANGUAGE plpgsql AS %L$f$,
    'BEGIN ' || rollup_runs_sql(rollup_with_totals('SELECT 1 AS sign, * FROM new_rows')) || ';
      IF EXISTS (SELECT 1 FROM new_rows c WHERE EXISTS (SELECT 1 FROM feedback f WHERE f.workspace_id = c.workspace_id AND f.run_id = c.id)) THEN '
      || rollup_feedback_sql(rollup_feedback_of_runs('SELECT 1 AS sign, * FROM new_rows')) || '; END IF;
      RETURN NULL; END');
END $do$;

-- Buckets already holding a longer value count it without the value from now on. A merged hour row
-- becomes a delta row again (the fold adds it to its hour and to all time), so the all-time rows of
-- such values go; under the fold's lock, so no fold runs meanwhile.
SELECT pg_advisory_xact_lock(hashtext('rollup_compact'));
DELETE FROM feedback_buckets WHERE merged AND bucket_start = '-infinity' AND octet_length(value) > 1500;
UPDATE feedback_buckets SET value = NULL, merged = false WHERE octet_length(value) > 1500;
