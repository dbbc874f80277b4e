-- The end user of a trace (issue 38, the Users page, server/runs/users.ts): the id its root run's
-- metadata names, under the keys the clients use: `user_id` (LangSmith, Langfuse's `userId` and
-- OpenInference's `user.id` are mapped to it), `ls_user_id`, `user.id` (an OTel span attribute kept
-- as metadata) and `userId`. Empty and over-long ids (> 256 characters) are no user, so that no
-- value can outgrow the index below. A plain SQL expression, inlined by the planner, so the index and
-- the queries that name the function match.
CREATE FUNCTION run_user_id(extra JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN length(coalesce(extra->'metadata'->>'user_id', extra->'metadata'->>'ls_user_id',
                                   extra->'metadata'->>'user.id', extra->'metadata'->>'userId')) BETWEEN 1 AND 256
         THEN coalesce(extra->'metadata'->>'user_id', extra->'metadata'->>'ls_user_id',
                       extra->'metadata'->>'user.id', extra->'metadata'->>'userId') END
$$;

-- Root runs that name a user, by project and user: the Users page's aggregate reads only these
-- entries (and their rows), and a user's traces are one range of it. Partial, so runs without a
-- user (and every child run) add nothing but the predicate's check to ingest.
CREATE INDEX "runs_user_idx" ON "runs" ("workspace_id", "project_id", run_user_id("extra"), "start_time" DESC)
  WHERE "is_root" AND run_user_id("extra") IS NOT NULL;
