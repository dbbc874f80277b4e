import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { queueRunUpdate } from "@/server/review/queues/schema";
import { removeQueueRun, updateQueueRun } from "@/server/review/queues/service";
import { wireItem } from "@/server/review/queues/wire";

/** `queueRunId` is the queue run's id or the run's own id: the SDKs pass either. */
const params = idParams("queueId", "queueRunId");

export const PATCH = route({
  access: "write",
  params,
  body: queueRunUpdate,
  response: wireItem,
  handler: ({ ctx, params, body }) => updateQueueRun(ctx.sql, ctx.workspaceId, params.queueId, params.queueRunId, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "write",
  params,
  handler: ({ ctx, params }) => removeQueueRun(ctx.sql, ctx.workspaceId, params.queueId, params.queueRunId),
});

export const { GET, POST, PUT } = methodNotAllowed("PATCH", "DELETE");
