import { z } from "zod";
import { uuid } from "../../core/uuid";
import { sharedDataset, sharedExamples } from "../../sharing/public-datasets";
import { sharedRunTree, wirePublicRunTree } from "../../sharing/public-runs";
import { readShare, resolveShare, share, shareRuns, unshare, unshareRuns, wireShareLink } from "../../sharing/service";
import { publicProcedure, router, workspaceProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";
import { wireDataset, wireExample } from "../../datasets/schema";

const target = z.object({ kind: z.enum(["run", "dataset"]), id: uuid });
const runs = z.object({ runIds: z.array(uuid).min(1).max(100) });
const token = z.object({ token: z.string().min(1).max(200) });

/** Public read-only links to a trace or a dataset (the REST API's PUT/GET/DELETE .../share). */
export const sharingRouter = router({
  get: workspaceProcedure
    .input(target)
    .output(answers(wireShareLink.nullable()))
    .query(({ ctx, input }) => readShare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  share: workspaceWriteProcedure
    .input(target)
    .output(answers(wireShareLink))
    .mutation(({ ctx, input }) => share(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  unshare: workspaceWriteProcedure.input(target).mutation(({ ctx, input }) => unshare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  shareRuns: workspaceWriteProcedure.input(runs).mutation(({ ctx, input }) => shareRuns(ctx.sql, ctx.workspaceId, input.runIds)),
  unshareRuns: workspaceWriteProcedure.input(runs).mutation(({ ctx, input }) => unshareRuns(ctx.sql, ctx.workspaceId, input.runIds)),

  /** What a public link shows, to anyone who has it: the shared trace as a tree. */
  publicTrace: publicProcedure
    .input(token)
    .output(answers(wirePublicRunTree))
    .query(async ({ ctx, input }) => {
      const shared = await resolveShare(ctx.sql, input.token, "run");
      return sharedRunTree(ctx.sql, shared.workspaceId, shared.resourceId);
    }),

  /** The shared dataset and its first examples. */
  publicDataset: publicProcedure
    .input(token)
    .output(answers(z.object({ dataset: wireDataset, examples: z.array(wireExample) })))
    .query(async ({ ctx, input }) => ({
      dataset: await sharedDataset(ctx.sql, input.token),
      examples: await sharedExamples(ctx.sql, input.token, { limit: 100 }),
    })),
});
