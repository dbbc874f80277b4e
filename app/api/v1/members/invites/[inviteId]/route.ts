import { deleteInvite } from "@/server/auth/members";
import { route } from "@/server/http/route";

export const DELETE = route<"admin", undefined, undefined, { inviteId: string }>({
  access: "admin",
  handler: ({ ctx, params }) => deleteInvite(ctx.sql, ctx.workspaceId, params.inviteId),
});
