import { z } from "zod";
import { uuid } from "../../core/uuid";
import { saveAsCommit, saveAsPromptCommit, seedFromPrompt, seedFromRun } from "../../playground/seed";
import type { Caller } from "../../prompts/access";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

const caller = (ctx: { workspaceId: string; userId: string }): Caller => ({ workspaceId: ctx.workspaceId, liker: ctx.userId });

/** What the playground opens with, and saving a variant as a prompt commit. (Calls stream through POST /playground/stream.) */
export const playgroundRouter = router({
  fromRun: workspaceProcedure
    .input(z.object({ runId: uuid }))
    .query(({ ctx, input }) => seedFromRun(ctx.sql, ctx.workspaceId, input.runId)),
  fromPrompt: workspaceProcedure
    .input(z.object({ owner: z.string().min(1), repo: z.string().min(1), ref: z.string().min(1).default("latest") }))
    .query(({ ctx, input }) => seedFromPrompt(ctx.sql, caller(ctx), input.owner, input.repo, input.ref)),
  saveCommit: workspaceWriteProcedure.input(saveAsCommit).mutation(({ ctx, input }) => saveAsPromptCommit(ctx.sql, caller(ctx), input)),
});
