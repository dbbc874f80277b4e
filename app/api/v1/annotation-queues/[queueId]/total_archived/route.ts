import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { timeRangeQuery } from "@/server/review/queues/schema";
import { queueSize, reviewerOf } from "@/server/review/queues/service";
import { wireSize } from "@/server/review/queues/wire";

/** Runs done (enough reviewers completed them), optionally only those added in a time range. */
export const GET = route({
  access: "read",
  params: idParams("queueId"),
  query: timeRangeQuery,
  response: wireSize,
  handler: ({ ctx, params, query }) =>
    queueSize(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, "completed", {
      from: query.start_time,
      to: query.end_time,
    }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
