-- Billing. Plans, workspace billing and monthly usage are kept only by the US deployment (the tables
-- exist everywhere so one schema serves both regions, but stay empty in the EU). Every deployment
-- writes usage deltas into its outbox in the ingest transaction; a drainer applies them (US) or
-- delivers them to the US deployment's internal endpoint (EU), which applies each delta id once.
CREATE TABLE "billing_plans" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "included_traces_per_month" BIGINT NOT NULL,
  "monthly_price_cents" INTEGER NOT NULL
);
INSERT INTO "billing_plans" ("id", "name", "included_traces_per_month", "monthly_price_cents") VALUES
  ('free', 'Free', 5000, 0),
  ('plus', 'Plus', 10000, 3900);

-- One row per workspace known to billing, created when its first usage is applied. `region` is where
-- the workspace's data lives; no foreign key, because EU workspaces exist only in the EU database.
CREATE TABLE "workspace_billing" (
  "workspace_id" UUID PRIMARY KEY,
  "region" TEXT NOT NULL CHECK ("region" IN ('us', 'eu')),
  "plan_id" TEXT NOT NULL DEFAULT 'free' REFERENCES "billing_plans" ("id"),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

-- Usage per workspace per calendar month (UTC): runs created and traces (root runs) created.
CREATE TABLE "billing_usage" (
  "workspace_id" UUID NOT NULL,
  "month" DATE NOT NULL,
  "runs" BIGINT NOT NULL DEFAULT 0,
  "traces" BIGINT NOT NULL DEFAULT 0,
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("workspace_id", "month")
);

-- Ids of deltas already counted (from any region), so a redelivery is a no-op.
CREATE TABLE "billing_applied_deltas" (
  "id" UUID PRIMARY KEY,
  "region" TEXT NOT NULL,
  "workspace_id" UUID NOT NULL,
  "applied_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

-- Usage deltas waiting to be counted by the US deployment. Written in the ingest transaction.
CREATE TABLE "billing_usage_outbox" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "month" DATE NOT NULL,
  "runs" BIGINT NOT NULL,
  "traces" BIGINT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "delivered_at" TIMESTAMPTZ(6),
  "last_error" TEXT
);
CREATE INDEX "billing_usage_outbox_due" ON "billing_usage_outbox" ("next_attempt_at") WHERE "delivered_at" IS NULL;
CREATE INDEX "billing_usage_outbox_pending_workspace" ON "billing_usage_outbox" ("workspace_id") WHERE "delivered_at" IS NULL;
