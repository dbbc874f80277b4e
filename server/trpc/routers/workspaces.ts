import { membershipsOf } from "../../auth/users";
import { getWorkspace } from "../../auth/workspaces";
import { router, userProcedure, workspaceProcedure } from "../init";

export const workspacesRouter = router({
  /** The workspaces the signed-in user belongs to, for the switcher. */
  mine: userProcedure.query(({ ctx }) => membershipsOf(ctx.sql, ctx.userId)),

  /** The current workspace and the user's role in it. */
  current: workspaceProcedure.query(async ({ ctx }) => {
    const workspace = await getWorkspace(ctx.sql, ctx.workspaceId);
    return { id: ctx.workspaceId, name: workspace?.name ?? "Workspace", role: ctx.role };
  }),
});
