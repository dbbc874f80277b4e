import { z } from "zod";
import type { Caller } from "../../prompts/access";
import { listCommits, pullCommit } from "../../prompts/commits";
import { getRepo, listRepos } from "../../prompts/repos";
import { commitListQuery, repoListQuery } from "../../prompts/schema";
import { router, workspaceProcedure } from "../init";

/** The wire shapes the prompts pages read (server/prompts/access.ts and commits.ts). */
export interface PromptView {
  id: string;
  repo_handle: string;
  full_name: string;
  owner: string;
  description: string | null;
  tags: string[];
  is_public: boolean;
  is_archived: boolean;
  num_commits: number;
  num_likes: number;
  num_downloads: number;
  last_commit_hash: string | null;
  updated_at: string;
  created_at: string;
}

export interface CommitView {
  id: string;
  commit_hash: string;
  parent_commit_hash: string | null;
  manifest: unknown;
  description: string | null;
  created_at: string;
  num_downloads: number;
}

const caller = (ctx: { workspaceId: string; userId: string }): Caller => ({ workspaceId: ctx.workspaceId, liker: ctx.userId });
const repoRef = z.object({ owner: z.string().min(1).max(128), repo: z.string().min(1).max(128) });

export const promptsRouter = router({
  list: workspaceProcedure.input(z.object({ query: z.string().max(200).optional(), archived: z.boolean().default(false) })).query(async ({ ctx, input }) => {
    const page = await listRepos(ctx.sql, caller(ctx), repoListQuery.parse({ query: input.query || undefined, is_archived: input.archived ? "allow" : "false", limit: 200 }));
    return { repos: page.repos as unknown as PromptView[], total: page.total };
  }),

  get: workspaceProcedure.input(repoRef).query(async ({ ctx, input }) =>
    (await getRepo(ctx.sql, caller(ctx), input.owner, input.repo)).repo as unknown as PromptView),

  commits: workspaceProcedure.input(repoRef.extend({ offset: z.number().int().min(0).default(0) })).query(async ({ ctx, input }) => {
    const page = await listCommits(ctx.sql, caller(ctx), input.owner, input.repo, commitListQuery.parse({ limit: 100, offset: input.offset }));
    return { commits: page.commits as unknown as CommitView[], total: page.total };
  }),

  /** One commit's manifest by hash, hash prefix, tag or "latest"; looking is not counted as a download. */
  commit: workspaceProcedure.input(repoRef.extend({ ref: z.string().min(1).max(128) })).query(async ({ ctx, input }) =>
    (await pullCommit(ctx.sql, caller(ctx), input.owner, input.repo, input.ref, true)) as unknown as CommitView),
});
