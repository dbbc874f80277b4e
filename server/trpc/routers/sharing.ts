import { z } from "zod";
import { uuid } from "../../core/uuid";
import { readShare, share, shareRuns, unshare, unshareRuns } from "../../sharing/service";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

const target = z.object({ kind: z.enum(["run", "dataset"]), id: uuid });
const runs = z.object({ runIds: z.array(uuid).min(1).max(100) });

/** Public read-only links to a trace or a dataset (the REST API's PUT/GET/DELETE .../share). */
export const sharingRouter = router({
  get: workspaceProcedure.input(target).query(({ ctx, input }) => readShare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  share: workspaceWriteProcedure.input(target).mutation(({ ctx, input }) => share(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  unshare: workspaceWriteProcedure.input(target).mutation(({ ctx, input }) => unshare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  shareRuns: workspaceWriteProcedure.input(runs).mutation(({ ctx, input }) => shareRuns(ctx.sql, ctx.workspaceId, input.runIds)),
  unshareRuns: workspaceWriteProcedure.input(runs).mutation(({ ctx, input }) => unshareRuns(ctx.sql, ctx.workspaceId, input.runIds)),
});
