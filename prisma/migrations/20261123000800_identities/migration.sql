CREATE TABLE "users" (
  "id" UUID PRIMARY KEY,
  "email" TEXT NOT NULL UNIQUE,
  "name" TEXT,
  "password_hash" TEXT NOT NULL,
  "region" TEXT NOT NULL DEFAULT 'us',
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

CREATE TABLE "memberships" (
  "user_id" UUID NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "role" TEXT NOT NULL CHECK ("role" IN ('admin', 'member', 'viewer')),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("user_id", "workspace_id")
);
CREATE INDEX "memberships_workspace_id_idx" ON "memberships" ("workspace_id");

CREATE TABLE "invites" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "email" TEXT NOT NULL,
  "role" TEXT NOT NULL CHECK ("role" IN ('admin', 'member', 'viewer')),
  "token_hash" TEXT NOT NULL UNIQUE,
  "invited_by" UUID,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  "accepted_at" TIMESTAMPTZ(6),
  "accepted_by" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "invites_workspace_id_idx" ON "invites" ("workspace_id");

CREATE INDEX "api_keys_user_id_idx" ON "api_keys" ("user_id");
