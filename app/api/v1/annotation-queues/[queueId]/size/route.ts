import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sizeQuery } from "@/server/review/queues/schema";
import { queueSize, reviewerOf } from "@/server/review/queues/service";
import { wireSize } from "@/server/review/queues/wire";

/** Runs not done yet, or those in one of the caller's review statuses. */
export const GET = route({
  access: "read",
  params: idParams("queueId"),
  query: sizeQuery,
  response: wireSize,
  handler: ({ ctx, params, query }) => queueSize(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, query.status),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
