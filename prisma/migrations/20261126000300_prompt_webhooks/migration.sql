-- Prompt webhooks: a workspace's URLs told when one of its prompts gets a commit or a tag is made or
-- moved. Header values often carry secrets: they are sealed (server/core/secret.ts), never returned.
CREATE TABLE "prompt_webhooks" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "url" TEXT NOT NULL,
  "headers_sealed" TEXT,
  -- Prompt names (repo handles) it is limited to (empty: every prompt), and those it leaves out.
  "include_prompts" TEXT[] NOT NULL DEFAULT '{}',
  "exclude_prompts" TEXT[] NOT NULL DEFAULT '{}',
  -- commit, tag:create, tag:update
  "triggers" TEXT[] NOT NULL DEFAULT ARRAY['commit']::TEXT[],
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE INDEX "prompt_webhooks_workspace_id_idx" ON "prompt_webhooks" ("workspace_id");
