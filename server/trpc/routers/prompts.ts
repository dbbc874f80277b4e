import { z } from "zod";
import type { Caller } from "../../prompts/access";
import { listCommits, pullCommit, wireCommit } from "../../prompts/commits";
import { getRepo, listRepos } from "../../prompts/repos";
import { REPO_TYPES } from "../../prompts/schema";
import { router, workspaceProcedure } from "../init";
import { answers } from "../output";
import { wireRepo } from "../../prompts/access";

const caller = (ctx: { workspaceId: string; userId: string }): Caller => ({ workspaceId: ctx.workspaceId, liker: ctx.userId });
const repoRef = z.object({ owner: z.string().min(1).max(128), repo: z.string().min(1).max(128) });

export const promptsRouter = router({
  list: workspaceProcedure
    .input(
      z.object({
        query: z.string().max(200).optional(),
        archived: z.boolean().default(false),
        /** Prompts, agents and skills share the list; absent shows every kind. */
        kind: z.enum(REPO_TYPES).optional(),
      }),
    )
    .output(answers(z.object({ repos: z.array(wireRepo), total: z.number() })))
    .query(async ({ ctx, input }) => {
      const page = await listRepos(ctx.sql, caller(ctx), {
        query: input.query || undefined,
        archived: input.archived ? "both" : "none",
        repoTypes: input.kind ? [input.kind] : [...REPO_TYPES],
        limit: 200,
      });
      return { repos: page.repos, total: page.total };
    }),

  get: workspaceProcedure
    .input(repoRef)
    .output(answers(wireRepo))
    .query(async ({ ctx, input }) => (await getRepo(ctx.sql, caller(ctx), input.owner, input.repo)).repo),

  commits: workspaceProcedure
    .input(repoRef.extend({ offset: z.number().int().min(0).default(0) }))
    .output(answers(z.object({ commits: z.array(wireCommit), total: z.number() })))
    .query(async ({ ctx, input }) => {
      const page = await listCommits(ctx.sql, caller(ctx), input.owner, input.repo, { limit: 100, offset: input.offset });
      return { commits: page.commits, total: page.total };
    }),

  /** One commit's manifest by hash, hash prefix, tag or "latest"; looking is not counted as a download. */
  commit: workspaceProcedure
    .input(repoRef.extend({ ref: z.string().min(1).max(128) }))
    .output(answers(wireCommit))
    .query(({ ctx, input }) => pullCommit(ctx.sql, caller(ctx), input.owner, input.repo, input.ref, true)),
});
