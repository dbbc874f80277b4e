import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { readShare, share, unshare, wireShareLink } from "@/server/sharing/service";

/** The body's proposed `share_token` is ignored: links are always made by the server. */
export const PUT = route({
  access: "write",
  response: wireShareLink,
  handler: ({ ctx, params }) => share(ctx.sql, ctx.workspaceId, "run", params.runId),
});

export const GET = route({
  access: "read",
  response: wireShareLink.nullable(),
  handler: ({ ctx, params }) => readShare(ctx.sql, ctx.workspaceId, "run", params.runId),
});

export const DELETE = route({
  access: "write",
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await unshare(ctx.sql, ctx.workspaceId, "run", params.runId);
    return {};
  },
});

export const { POST, PATCH } = methodNotAllowed("GET", "PUT", "DELETE");
