-- The rollup triggers reach runs, trace totals, feedback and projects only by key, for the few rows a
-- statement changed. PL/pgSQL plans static statements once per connection, with the statistics of
-- that moment, and a partition filled since its last ANALYZE (a new database, a new month) looks
-- nearly empty: the lookups became hash joins over sequential scans of every runs partition and of
-- trace_totals, or bitmap ANDs of a workspace's whole root-run index, so each ingest request read a
-- share of the table that grew with every run (pg_stat_statements on the ingest bench: the trace
-- totals trigger's statement went from 56 to 639 buffers per request while 40,000 runs arrived).
-- Planned with sequential and bitmap scans and hash and merge joins off, they are index probes
-- whatever the statistics say.
ALTER FUNCTION rollup_runs_inserted() SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off;
ALTER FUNCTION rollup_runs_changed() SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off;
ALTER FUNCTION rollup_feedback_changed() SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off;

-- A trace's root is found through an index of root runs by trace (a tenth of the runs, so a tenth of
-- an index's cost at ingest); through the trace index the probe read every run of the trace to find
-- its one root, so a request extending a 10,000-run trace read 10,000 index entries. The workspace
-- is compared with IS NOT DISTINCT FROM, which no index answers: the planner cannot trade the
-- trace probe for a scan of the workspace's roots.
CREATE INDEX "runs_trace_root_idx" ON "runs" ("trace_id") WHERE "is_root";

-- The root runs of changed trace totals (`before` and `after`: trace totals columns), signed -1 and 1.
CREATE FUNCTION rollup_trace_roots(before TEXT, after TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$
  SELECT t.sign, r.*, t.prompt_tokens AS tt_prompt_tokens, t.completion_tokens AS tt_completion_tokens, t.total_tokens AS tt_total_tokens,
    t.prompt_cost AS tt_prompt_cost, t.completion_cost AS tt_completion_cost, t.total_cost AS tt_total_cost
  FROM (SELECT -1 AS sign, * FROM (%1$s) b UNION ALL SELECT 1, * FROM (%2$s) a) t
  CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.trace_id = t.trace_id AND r.is_root AND r.workspace_id IS NOT DISTINCT FROM t.workspace_id) r
$q$, before, after)
$f$;

-- (rollup_trace_totals_changed as in 20261127000000_rollup_empty_statements, its roots from rollup_trace_roots.)
CREATE OR REPLACE FUNCTION rollup_trace_totals_changed() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
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
  roots TEXT := rollup_trace_roots(before, after);
  found BOOLEAN;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    EXECUTE 'SELECT EXISTS (' || roots || ')' INTO found;
    IF NOT found THEN RETURN NULL; END IF;
  END IF;
  EXECUTE rollup_runs_sql(roots, true);
  RETURN NULL;
END $$;

-- The insert trigger of trace totals holds its statement as static SQL (see 20261126000400_rollups).
DO $do$ BEGIN
  EXECUTE format($f$CREATE OR REPLACE FUNCTION rollup_trace_totals_inserted() RETURNS trigger LANGUAGE plpgsql
    SET enable_seqscan = off SET enable_bitmapscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS %L$f$,
    'BEGIN ' || rollup_runs_sql(rollup_trace_roots(
      'SELECT workspace_id, trace_id, NULL::bigint AS prompt_tokens, NULL::bigint AS completion_tokens, NULL::bigint AS total_tokens,
         NULL::numeric AS prompt_cost, NULL::numeric AS completion_cost, NULL::numeric AS total_cost FROM new_rows',
      'SELECT workspace_id, trace_id, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost, total_cost FROM new_rows'),
      true) || '; RETURN NULL; END');
END $do$;
