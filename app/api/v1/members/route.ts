import { methodNotAllowed } from "@/server/http/not-found";
import { createInvite, listMembers } from "@/server/auth/members";
import { inviteCreate } from "@/server/auth/schema";
import { reply, route } from "@/server/http/route";

export const GET = route({
  access: "read",
  handler: ({ ctx }) => listMembers(ctx.sql, ctx.workspaceId),
});

/** Invites an e-mail address; the answer holds the invitation token once. */
export const POST = route({
  access: "admin",
  body: inviteCreate,
  handler: async ({ ctx, body }) => reply(201, await createInvite(ctx.sql, ctx.workspaceId, body, ctx.identity.userId ?? null)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
