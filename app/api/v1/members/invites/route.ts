import { z } from "zod";
import { listInvites } from "@/server/auth/members";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { wireInvite } from "@/server/auth/wire";

/** Pending invitations (never their tokens). */
export const GET = route({
  access: "admin",
  response: z.array(wireInvite),
  handler: ({ ctx }) => listInvites(ctx.sql, ctx.workspaceId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
