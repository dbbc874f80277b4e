import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queueSize, reviewerOf } from "@/server/review/queues/service";
import { wireSize } from "@/server/review/queues/wire";

/** Every run in the queue, done or not. */
export const GET = route({
  access: "read",
  params: idParams("queueId"),
  response: wireSize,
  handler: ({ ctx, params }) => queueSize(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, "all"),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
