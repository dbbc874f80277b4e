import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { listQueueReviewers, queueReviewersPut, setQueueReviewers, wireQueueReviewers } from "@/server/review/queues/reviewers";

/** The users assigned to review the queue: an annotator reviews only the queues it is assigned to. */
export const GET = route({
  access: "read",
  params: idParams("queueId"),
  response: wireQueueReviewers,
  handler: ({ ctx, params }) => listQueueReviewers(ctx.sql, ctx.workspaceId, params.queueId),
});

export const PUT = route({
  access: "write",
  params: idParams("queueId"),
  body: queueReviewersPut,
  response: wireQueueReviewers,
  handler: ({ ctx, params, body }) => setQueueReviewers(ctx.sql, ctx.workspaceId, params.queueId, body.user_ids),
});

export const { POST, PATCH, DELETE } = methodNotAllowed("GET", "PUT");
