-- A workspace's named model connections (the playground, evaluators and /generate call models
-- through them): an OpenAI-compatible server or Anthropic. The API key and the extra headers are
-- kept sealed (AES-GCM, server/core/secret.ts), never in plain text, and never returned.
CREATE TABLE "model_connections" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "provider" TEXT NOT NULL CHECK ("provider" IN ('openai', 'anthropic')),
  "base_url" TEXT NOT NULL,
  "default_model" TEXT NOT NULL,
  "api_key_sealed" TEXT,
  "headers_sealed" TEXT,
  -- Calls through this connection per minute across the workspace (null: no limit of ours).
  "requests_per_minute" INTEGER CHECK ("requests_per_minute" > 0),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "model_connections_workspace_id_name_key" ON "model_connections" ("workspace_id", "name");
