-- Public links to a trace or a dataset. The token is looked up by its SHA-256; the owner can see it
-- again because it is also kept sealed (AES-GCM under the deployment secret).
CREATE TABLE "shares" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "resource_type" TEXT NOT NULL,
  "resource_id" UUID NOT NULL,
  "token_hash" TEXT NOT NULL UNIQUE,
  "token_sealed" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "revoked_at" TIMESTAMPTZ(6)
);
CREATE UNIQUE INDEX "shares_active_resource_key" ON "shares" ("workspace_id", "resource_type", "resource_id") WHERE "revoked_at" IS NULL;
