-- Alerts (issue 38): a rule watches one metric of a project (or the workspace's evaluator spend)
-- over the last N minutes, evaluated once a minute by a durable job; its state changes are its
-- history, and each change that notifies is delivered to its destinations as durable jobs.
CREATE TABLE "alert_rules" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "project_id" UUID REFERENCES "projects" ("id") ON DELETE CASCADE,
  "evaluator_id" UUID REFERENCES "evaluators" ("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "filter" TEXT,
  "root_runs_only" BOOLEAN NOT NULL DEFAULT true,
  "metric" TEXT NOT NULL,
  "feedback_key" TEXT,
  "feedback_value" TEXT,
  "comparison" TEXT NOT NULL CHECK ("comparison" IN ('gt', 'gte', 'lt', 'lte')),
  "threshold" DOUBLE PRECISION NOT NULL,
  "window_minutes" INTEGER NOT NULL CHECK ("window_minutes" BETWEEN 1 AND 10080),
  -- [{kind, url, severity?, secret_sealed?, routing_key_sealed?}]: secrets sealed by core/secret.ts.
  "destinations" JSONB NOT NULL DEFAULT '[]',
  "is_enabled" BOOLEAN NOT NULL DEFAULT true,
  "muted_until" TIMESTAMPTZ(6),
  "state" TEXT NOT NULL DEFAULT 'no_data' CHECK ("state" IN ('ok', 'firing', 'no_data')),
  "state_since" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "last_value" DOUBLE PRECISION,
  -- rollups | scan: where the last evaluation read its numbers.
  "last_source" TEXT,
  "last_evaluated_at" TIMESTAMPTZ(6),
  -- The evaluation slot last evaluated: a slot is evaluated once, whichever instance claims it.
  "last_slot" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "alert_rules_workspace_id_created_at_idx" ON "alert_rules" ("workspace_id", "created_at");
CREATE INDEX "alert_rules_project_id_idx" ON "alert_rules" ("project_id");

-- A rule's state changes (and test notifications), with the value seen.
CREATE TABLE "alert_events" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "rule_id" UUID NOT NULL REFERENCES "alert_rules" ("id") ON DELETE CASCADE,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('fired', 'resolved', 'no_data', 'ok', 'test')),
  "from_state" TEXT,
  "to_state" TEXT NOT NULL,
  "value" DOUBLE PRECISION,
  "threshold" DOUBLE PRECISION NOT NULL,
  "comparison" TEXT NOT NULL,
  "window_start" TIMESTAMPTZ(6) NOT NULL,
  "window_end" TIMESTAMPTZ(6) NOT NULL,
  "source" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "alert_events_rule_id_created_at_idx" ON "alert_events" ("rule_id", "created_at" DESC);

-- Each attempt to deliver an event to a destination; a success is written under the delivery id.
CREATE TABLE "alert_deliveries" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "rule_id" UUID NOT NULL REFERENCES "alert_rules" ("id") ON DELETE CASCADE,
  "event_id" UUID NOT NULL REFERENCES "alert_events" ("id") ON DELETE CASCADE,
  "destination" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "outcome" TEXT NOT NULL,
  "status_code" INTEGER,
  "attempts" INTEGER NOT NULL DEFAULT 1,
  "detail" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "alert_deliveries_event_id_idx" ON "alert_deliveries" ("event_id");

-- Cost control: evaluator and playground spend limits, per workspace ('evaluators', 'playground')
-- and per evaluator ('evaluator:<id>'), per day, week or month (LangSmith's spend_limit).
CREATE TABLE "spend_limits" (
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "target" TEXT NOT NULL,
  "evaluator_id" UUID REFERENCES "evaluators" ("id") ON DELETE CASCADE,
  "limit_usd" NUMERIC NOT NULL CHECK ("limit_usd" >= 0),
  "window" TEXT NOT NULL CHECK ("window" IN ('daily', 'weekly', 'monthly')),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("workspace_id", "target")
);

-- An evaluation past a spend limit is skipped: recorded (so it is not tried again) and logged.
ALTER TABLE "evaluations" DROP CONSTRAINT IF EXISTS "evaluations_outcome_check";
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_outcome_check" CHECK ("outcome" IN ('success', 'error', 'skipped'));
