import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { deleteQueue, readQueue, updateQueue } from "@/server/review/queues/queues";
import { queueUpdate } from "@/server/review/queues/schema";
import { wireQueue, wireQueueDetail } from "@/server/review/queues/wire";

const params = idParams("queueId");

export const GET = route({
  access: "read",
  params,
  response: wireQueueDetail,
  handler: ({ ctx, params }) => readQueue(ctx.sql, ctx.workspaceId, params.queueId),
});

export const PATCH = route({
  access: "write",
  params,
  body: queueUpdate,
  response: wireQueue,
  handler: ({ ctx, params, body }) => updateQueue(ctx.sql, ctx.workspaceId, params.queueId, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "write",
  params,
  handler: ({ ctx, params }) => deleteQueue(ctx.sql, ctx.workspaceId, params.queueId),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
