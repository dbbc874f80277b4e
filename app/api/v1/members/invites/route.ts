import { listInvites } from "@/server/auth/members";
import { route } from "@/server/http/route";

/** Pending invitations (never their tokens). */
export const GET = route({
  access: "admin",
  handler: ({ ctx }) => listInvites(ctx.sql, ctx.workspaceId),
});
