import { createWorkspaceFor } from "../../auth/caller";
import { workspaceCreate } from "../../auth/schema";
import { getUser, membershipsOf } from "../../auth/users";
import { getWorkspace } from "../../auth/workspaces";
import { router, userProcedure, workspaceProcedure } from "../init";
import { answers } from "../output";
import { wireWorkspace } from "../../auth/wire";

export const workspacesRouter = router({
  /** The workspaces the signed-in user belongs to, for the switcher. */
  mine: userProcedure.query(({ ctx }) => membershipsOf(ctx.sql, ctx.userId)),

  /** A new workspace; the signed-in user becomes its admin. */
  create: userProcedure
    .input(workspaceCreate)
    .output(answers(wireWorkspace))
    .mutation(async ({ ctx, input }) =>
      createWorkspaceFor(ctx.sql, { identity: null, user: await getUser(ctx.sql, ctx.userId) }, input.name),
    ),

  /** The current workspace and the user's role in it. */
  current: workspaceProcedure.query(async ({ ctx }) => {
    const workspace = await getWorkspace(ctx.sql, ctx.workspaceId);
    return { id: ctx.workspaceId, name: workspace?.name ?? "Workspace", role: ctx.role };
  }),
});
