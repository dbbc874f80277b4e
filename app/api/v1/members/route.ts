import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { createInvite, listMembers } from "@/server/auth/members";
import { inviteCreate } from "@/server/auth/schema";
import { route } from "@/server/http/route";
import { wireMember, wireNewInvite } from "@/server/auth/wire";

export const GET = route({
  access: "read",
  response: z.array(wireMember),
  handler: ({ ctx }) => listMembers(ctx.sql, ctx.workspaceId),
});

/** Invites an e-mail address; the answer holds the invitation token once. */
export const POST = route({
  access: "admin",
  body: inviteCreate,
  status: 201,
  response: wireNewInvite,
  handler: ({ ctx, body }) => createInvite(ctx.sql, ctx.workspaceId, body, ctx.identity.userId ?? null),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
