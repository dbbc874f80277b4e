import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { readShare, share, unshare } from "@/server/sharing/service";

/** The body's proposed `share_token` is ignored: links are always made by the server. */
export const PUT = route({
  access: "write",
  handler: ({ ctx, params }) => share(ctx.sql, ctx.workspaceId, "run", params.runId),
});

export const GET = route({
  access: "read",
  handler: async ({ ctx, params }) => Response.json(await readShare(ctx.sql, ctx.workspaceId, "run", params.runId)),
});

export const DELETE = route({
  access: "write",
  handler: async ({ ctx, params }) => {
    await unshare(ctx.sql, ctx.workspaceId, "run", params.runId);
    return {};
  },
});

export const { POST, PATCH } = methodNotAllowed("GET", "PUT", "DELETE");
