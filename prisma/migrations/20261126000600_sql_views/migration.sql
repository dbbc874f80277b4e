-- Read-only SQL (POST /api/v2/sql/query, server/sql): a query runs as tracelight_sql_reader, a role
-- that can read nothing but the views of schema tracelight_sql. The views belong to
-- tracelight_sql_owner, which may read the columns they show and, by row-level security, only the
-- rows of the workspace and projects that the request put in sql_scopes for its own connection
-- (inside the query's transaction, which is rolled back, so no scope row is ever committed).

CREATE TABLE "sql_scopes" (
  "backend_pid" INTEGER PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "project_ids" UUID[] NOT NULL
);

-- Roles belong to the cluster, not to one database: another database may have created them already
-- (concurrently, too). The migrating user joins both to hand the views over and to switch roles.
DO $$ BEGIN
  CREATE ROLE tracelight_sql_owner NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
  CREATE ROLE tracelight_sql_reader NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
  EXECUTE format('GRANT tracelight_sql_owner, tracelight_sql_reader TO %I', current_user);
EXCEPTION WHEN OTHERS THEN NULL; -- already a member (or a superuser, who needs no membership)
END $$;

CREATE SCHEMA "tracelight_sql";

CREATE VIEW "tracelight_sql"."runs" AS
SELECT id, trace_id, parent_run_id, project_id, is_root, name, run_type, status, start_time, end_time,
       latency_ms, first_token_time, inputs, outputs, error, extra -> 'metadata' AS metadata, extra, tags,
       thread_id, model, provider, prompt_tokens, completion_tokens, total_tokens, prompt_cost,
       completion_cost, total_cost, reference_example_id, dotted_order
FROM "runs";

CREATE VIEW "tracelight_sql"."feedback" AS
SELECT id, run_id, trace_id, project_id, key, score, value, comment, correction, feedback_source,
       start_time, created_at, modified_at
FROM "feedback";

GRANT SELECT (id, trace_id, parent_run_id, project_id, workspace_id, is_root, name, run_type, status, start_time,
              end_time, latency_ms, first_token_time, inputs, outputs, error, extra, tags, thread_id, model,
              provider, prompt_tokens, completion_tokens, total_tokens, prompt_cost, completion_cost,
              total_cost, reference_example_id, dotted_order) ON "runs" TO tracelight_sql_owner;
GRANT SELECT (id, run_id, trace_id, project_id, workspace_id, key, score, value, comment, correction,
              feedback_source, start_time, created_at, modified_at) ON "feedback" TO tracelight_sql_owner;
GRANT SELECT ON "sql_scopes" TO tracelight_sql_owner;
ALTER VIEW "tracelight_sql"."runs" OWNER TO tracelight_sql_owner;
ALTER VIEW "tracelight_sql"."feedback" OWNER TO tracelight_sql_owner;

GRANT USAGE ON SCHEMA "tracelight_sql" TO tracelight_sql_reader;
GRANT SELECT ON "tracelight_sql"."runs", "tracelight_sql"."feedback" TO tracelight_sql_reader;

-- Row-level security: the table owner (the service) is not subject to it; the views' owner sees the
-- rows of its connection's scope only. Each subquery is an InitPlan, run once per query, so the
-- runs index on (workspace_id, project_id, start_time) answers the time range.
ALTER TABLE "runs" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "sql_scope" ON "runs" FOR SELECT TO tracelight_sql_owner USING (
  workspace_id = (SELECT s.workspace_id FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())
  AND project_id = ANY ((SELECT s.project_ids FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())::uuid[])
);
ALTER TABLE "feedback" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "sql_scope" ON "feedback" FOR SELECT TO tracelight_sql_owner USING (
  workspace_id = (SELECT s.workspace_id FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())
  AND project_id = ANY ((SELECT s.project_ids FROM sql_scopes s WHERE s.backend_pid = pg_backend_pid())::uuid[])
);
