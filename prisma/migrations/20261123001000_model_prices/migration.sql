-- A workspace's own model prices: tried before the shipped table (server/llm/prices.json).
-- Prices are USD per 1M tokens by token type: {"input": 2.5, "output": 10, "cache_read": 1.25, ...}.
CREATE TABLE "model_prices" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "match_pattern" TEXT NOT NULL,
  "provider" TEXT,
  "start_date" TIMESTAMPTZ(6),
  "prices" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "model_prices_workspace_id_idx" ON "model_prices" ("workspace_id");

-- Per-workspace settings for POST /generate; the API key is stored AES-256-GCM encrypted.
CREATE TABLE "generation_settings" (
  "workspace_id" UUID PRIMARY KEY,
  "base_url" TEXT,
  "model" TEXT,
  "api_key_encrypted" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

-- Reports from self-hosted deployments: POST /v1/beacon and */v1/metadata/submit.
-- License keys and API keys are kept only as SHA-256 digests.
CREATE TABLE "deployment_reports" (
  "id" UUID PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "license_digest" TEXT,
  "instance_id" TEXT,
  "version" TEXT,
  "from_time" TIMESTAMPTZ(6),
  "to_time" TIMESTAMPTZ(6),
  "measures" JSONB NOT NULL DEFAULT '{}',
  "tags" JSONB NOT NULL DEFAULT '{}',
  "payload" JSONB NOT NULL DEFAULT '{}',
  "ip" TEXT,
  "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "deployment_reports_license_digest_received_at_idx" ON "deployment_reports" ("license_digest", "received_at" DESC);
CREATE INDEX "deployment_reports_received_at_idx" ON "deployment_reports" ("received_at" DESC);
