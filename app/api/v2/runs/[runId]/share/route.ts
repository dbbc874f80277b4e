import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { share, unshare } from "@/server/sharing/service";

const params = idParams("runId");

/** Shares the run's trace (`client.runs.share.create`); answers its token. */
export const POST = route({
  access: "write",
  params,
  response: z.object({ share_token: z.string() }),
  handler: async ({ ctx, params }) => ({ share_token: (await share(ctx.sql, ctx.workspaceId, "run", params.runId)).share_token }),
});

/** Stops sharing the trace (`client.runs.share.delete`, which names the trace by its root run's id). */
export const DELETE = route({
  access: "write",
  params,
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await unshare(ctx.sql, ctx.workspaceId, "run", params.runId);
    return {};
  },
});

export const { GET, PUT, PATCH } = methodNotAllowed("POST", "DELETE");
