import { z } from "zod";
import { uuid } from "../../runs/schema";
import { readShare, share, unshare } from "../../sharing/service";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

const target = z.object({ kind: z.enum(["run", "dataset"]), id: uuid });

/** Public read-only links to a trace or a dataset (the REST API's PUT/GET/DELETE .../share). */
export const sharingRouter = router({
  get: workspaceProcedure.input(target).query(({ ctx, input }) => readShare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  share: workspaceWriteProcedure.input(target).mutation(({ ctx, input }) => share(ctx.sql, ctx.workspaceId, input.kind, input.id)),
  unshare: workspaceWriteProcedure.input(target).mutation(({ ctx, input }) => unshare(ctx.sql, ctx.workspaceId, input.kind, input.id)),
});
