import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queueRunUpdate } from "@/server/review/queues/schema";
import { updateQueueRun } from "@/server/review/queues/service";
import { wireItem } from "@/server/review/queues/wire";

export const PATCH = route({
  access: "write",
  params: idParams("queueId", "itemId"),
  body: queueRunUpdate,
  response: wireItem,
  handler: ({ ctx, params, body }) => updateQueueRun(ctx.sql, ctx.workspaceId, params.queueId, params.itemId, body),
});

export const { GET, POST, PUT, DELETE } = methodNotAllowed("PATCH");
