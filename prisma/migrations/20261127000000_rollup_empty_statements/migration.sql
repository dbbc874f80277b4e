-- A statement that changed no row still fires a statement-level trigger: ingest's "attach early
-- feedback" UPDATE on every request, and its trace-totals upsert, which only inserts for new
-- traces. These triggers now return at once when their transition table is empty, instead of
-- planning and running lookups into runs, which cost milliseconds per request (tens on the
-- embedded database, where planning over the runs partitions reopens their files).
CREATE OR REPLACE FUNCTION rollup_feedback_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
  EXECUTE 'SELECT EXISTS (' || changed || ')' INTO found;
  IF NOT found THEN RETURN NULL; END IF;
  EXECUTE 'SELECT EXISTS (' || of_runs || ')' INTO found;
  IF found THEN EXECUTE rollup_feedback_sql(of_runs); END IF;
  RETURN NULL;
END $$;

-- (rollup_trace_totals_changed as in 20261126000400_rollups, with the early return for an update of no rows.)
CREATE OR REPLACE FUNCTION rollup_trace_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    EXECUTE 'SELECT EXISTS (' || roots || ')' INTO found;
    IF NOT found THEN RETURN NULL; END IF;
  END IF;
  EXECUTE rollup_runs_sql(roots, true);
  RETURN NULL;
END $$;
