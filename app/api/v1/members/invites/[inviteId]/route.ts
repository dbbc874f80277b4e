import { idParams } from "@/server/core/uuid";
import { deleteInvite } from "@/server/auth/members";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";

export const DELETE = route({
  answers: DELETED,
  access: "admin",
  params: idParams("inviteId"),
  handler: ({ ctx, params }) => deleteInvite(ctx.sql, ctx.workspaceId, params.inviteId),
});

export const { GET, POST, PUT, PATCH } = methodNotAllowed("DELETE");
