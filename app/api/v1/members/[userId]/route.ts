import { idParams } from "@/server/core/uuid";
import { removeMember, setMemberRole } from "@/server/auth/members";
import { memberPatch } from "@/server/auth/schema";
import { forbidden } from "@/server/core/errors";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { wireMember } from "@/server/auth/wire";

export const PATCH = route({
  access: "admin",
  params: idParams("userId"),
  body: memberPatch,
  response: wireMember,
  handler: ({ ctx, body, params }) => setMemberRole(ctx.sql, ctx.workspaceId, params.userId, body.role),
});

/** Admins remove anyone; a member may leave. */
export const DELETE = route({
  answers: DELETED,
  access: "read",
  params: idParams("userId"),
  handler: ({ ctx, params }) => {
    if (ctx.identity.role !== "admin" && params.userId !== ctx.identity.userId) {
      throw forbidden("Only workspace admins can remove other members.");
    }
    return removeMember(ctx.sql, ctx.workspaceId, params.userId);
  },
});

export const { GET, POST, PUT } = methodNotAllowed("PATCH", "DELETE");
