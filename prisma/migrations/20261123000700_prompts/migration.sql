-- Prompt repository ("hub"): a workspace's prompt repos, their commit chains, likes and commit tags.
-- A repo is addressed as {workspace handle}/{repo_handle}; "-" on the wire means the caller's own workspace.
CREATE TABLE "prompt_repos" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "repo_handle" TEXT NOT NULL,
  "description" TEXT,
  "readme" TEXT,
  "tags" TEXT[] NOT NULL DEFAULT '{}',
  "is_public" BOOLEAN NOT NULL DEFAULT false,
  "is_archived" BOOLEAN NOT NULL DEFAULT false,
  "num_likes" INTEGER NOT NULL DEFAULT 0,
  "num_downloads" INTEGER NOT NULL DEFAULT 0,
  "num_views" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "prompt_repos_workspace_id_repo_handle_key" ON "prompt_repos" ("workspace_id", "repo_handle");
CREATE INDEX "prompt_repos_workspace_id_updated_at_idx" ON "prompt_repos" ("workspace_id", "updated_at" DESC);

-- One commit per manifest version. commit_hash = sha256(parent hash + canonical manifest JSON);
-- version numbers a repo's chain 1, 2, 3... and is unique, so two pushes on one parent cannot both win.
CREATE TABLE "prompt_commits" (
  "id" UUID PRIMARY KEY,
  "workspace_id" UUID NOT NULL,
  "repo_id" UUID NOT NULL REFERENCES "prompt_repos" ("id") ON DELETE CASCADE,
  "version" INTEGER NOT NULL,
  "commit_hash" TEXT NOT NULL,
  "parent_id" UUID,
  "parent_commit_hash" TEXT,
  "manifest" JSONB NOT NULL,
  "examples" JSONB NOT NULL DEFAULT '[]',
  "description" TEXT,
  "num_downloads" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "prompt_commits_repo_id_version_key" ON "prompt_commits" ("repo_id", "version");
CREATE UNIQUE INDEX "prompt_commits_repo_id_commit_hash_key" ON "prompt_commits" ("repo_id", "commit_hash");

-- One like per liker (a user id, or an API key id for service keys) per repo.
CREATE TABLE "prompt_likes" (
  "repo_id" UUID NOT NULL REFERENCES "prompt_repos" ("id") ON DELETE CASCADE,
  "liker" TEXT NOT NULL,
  "liker_workspace_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("repo_id", "liker")
);

-- Named pointers to commits ("prod", "v1"); a name points at one commit per repo and can be moved.
CREATE TABLE "prompt_commit_tags" (
  "id" UUID PRIMARY KEY,
  "repo_id" UUID NOT NULL REFERENCES "prompt_repos" ("id") ON DELETE CASCADE,
  "commit_id" UUID NOT NULL REFERENCES "prompt_commits" ("id") ON DELETE CASCADE,
  "tag_name" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "prompt_commit_tags_repo_id_tag_name_key" ON "prompt_commit_tags" ("repo_id", "tag_name");
