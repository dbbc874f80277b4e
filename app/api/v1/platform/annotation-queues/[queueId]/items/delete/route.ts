import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { itemsDelete } from "@/server/review/queues/schema";
import { removeQueueRuns } from "@/server/review/queues/service";

export const POST = route({
  access: "write",
  params: idParams("queueId"),
  body: itemsDelete,
  response: z.object({ detail: z.string() }),
  handler: async ({ ctx, params, body }) => {
    const { deleted } = await removeQueueRuns(ctx.sql, ctx.workspaceId, params.queueId, { item_ids: body.item_ids });
    return { detail: `Removed ${deleted} item(s).` };
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
