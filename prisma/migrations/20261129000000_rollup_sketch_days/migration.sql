-- Percentiles over days read day rows, and every sketch read is an index-only scan.
--
-- The coarse sketches (no name, model or provider) were merged per hour and for all time into
-- run_sketches, so a 30-day latency chart read ~460,000 hour rows of a 1,000,000-run project (1.3 s).
-- They now live in run_dim_sketches as the dimension 'none' (name, model and provider null), per
-- hour, UTC day and all time like the other dimensions: the fold writes them there, and run_sketches
-- keeps only ingest's delta rows (readers add those, unmerged, as before).
--
-- run_dim_sketches_key now carries n: the fold's updates scatter a key's rows over the heap (a
-- 30-day read of 70,000 day rows touched 32,000 heap pages), while the index holds them in order.
-- The partial index on empty rows already made an update of n a non-HOT one, so carrying n in the
-- key's index costs the fold nothing more.

DROP INDEX "run_dim_sketches_key";

CREATE OR REPLACE FUNCTION rollup_fold_run_sketches(batch tid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS MATERIALIZED (DELETE FROM run_sketches WHERE ctid = ANY(batch) RETURNING *)
  INSERT INTO run_dim_sketches (workspace_id, project_id, dim, span, bucket_start, name, model, provider, metric, run_type, is_root, status, bin, n)
  SELECT f.workspace_id, f.project_id, d.dim, t.span, t.bucket_start, d.name, d.model, d.provider, f.metric, f.run_type, f.is_root, f.status,
    f.bin, sum(f.n)
  FROM fresh f
  CROSS JOIN LATERAL (VALUES ('none', NULL::text, NULL::text, NULL::text), ('name', f.name, NULL, NULL), ('model', NULL, f.model, NULL),
    ('provider', NULL, NULL, f.provider)) d(dim, name, model, provider)
  CROSS JOIN LATERAL (VALUES (1::smallint, f.bucket_start), (24::smallint, date_bin('1 day', f.bucket_start, TIMESTAMPTZ '1970-01-01 00:00:00+00')),
    (0::smallint, '-infinity'::timestamptz)) t(span, bucket_start)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (workspace_id, project_id, dim, span, bucket_start, name, model, provider, metric, run_type, is_root, status, bin) DO UPDATE SET
    n = run_dim_sketches.n + EXCLUDED.n;
END $$;

-- The merged rows move (their hours also summed per day), under the fold's lock.
SELECT pg_advisory_xact_lock(hashtext('rollup_compact'));
INSERT INTO run_dim_sketches (workspace_id, project_id, dim, span, bucket_start, metric, run_type, is_root, status, bin, n)
SELECT s.workspace_id, s.project_id, 'none', t.span, t.bucket_start, s.metric, s.run_type, s.is_root, s.status, s.bin, sum(s.n)
FROM run_sketches s
CROSS JOIN LATERAL (VALUES (1::smallint, s.bucket_start), (24::smallint, date_bin('1 day', s.bucket_start, TIMESTAMPTZ '1970-01-01 00:00:00+00'))) t(span, bucket_start)
WHERE s.merged AND s.bucket_start > '-infinity'
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
UNION ALL
SELECT s.workspace_id, s.project_id, 'none', 0, s.bucket_start, s.metric, s.run_type, s.is_root, s.status, s.bin, s.n
FROM run_sketches s WHERE s.merged AND s.bucket_start = '-infinity';
DELETE FROM run_sketches WHERE merged;

CREATE UNIQUE INDEX "run_dim_sketches_key" ON "run_dim_sketches"
  ("workspace_id", "project_id", "dim", "span", "bucket_start", "name", "model", "provider", "metric", "run_type", "is_root", "status", "bin")
  INCLUDE ("n") NULLS NOT DISTINCT;

-- Only delta rows are left in run_sketches: readers find them through run_sketches_fresh_idx, and
-- ingest no longer writes an entry per delta row into an index by hour.
DROP INDEX "run_sketches_merged_key";
DROP INDEX "run_sketches_workspace_id_project_id_bucket_start_idx";
