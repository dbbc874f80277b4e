import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { itemsCountQuery } from "@/server/review/queues/schema";
import { countItems, reviewerOf } from "@/server/review/queues/service";
import { wireCount } from "@/server/review/queues/wire";

export const GET = route({
  access: "read",
  params: idParams("queueId"),
  query: itemsCountQuery,
  response: wireCount,
  handler: ({ ctx, params, query }) => countItems(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
