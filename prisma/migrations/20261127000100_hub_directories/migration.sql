-- Agents and skills are hub repos too: they live beside prompts, share their names, commits and
-- tags, and differ only in what a commit holds (a directory of files instead of a manifest).
ALTER TABLE "prompt_repos" ADD COLUMN "repo_type" TEXT NOT NULL DEFAULT 'prompt'
  CONSTRAINT "prompt_repos_repo_type_check" CHECK ("repo_type" IN ('prompt', 'agent', 'skill'));
