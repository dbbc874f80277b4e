-- How many stored runs wait (placement_pending) for one of `ids` as their parent: ingest asks after
-- every request. Not a partition key, so the query is planned over every partition of runs; planned
-- per request, that opened each partition's files to estimate sizes. Planned once per connection here.
CREATE FUNCTION runs_pending_children(ws UUID, ids UUID[]) RETURNS INTEGER LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN (SELECT count(*)::int FROM runs WHERE placement_pending AND parent_run_id = ANY(ids) AND (workspace_id = ws) IS TRUE);
END $$;
