import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { extendQuery, itemsAdd, itemsQuery } from "@/server/review/queues/schema";
import { addRuns, itemsPage, reviewerOf } from "@/server/review/queues/service";
import { wireItem, wireItemsPage } from "@/server/review/queues/wire";

const params = idParams("queueId");

/** Items of one section for the caller, in queue order, as `{items, next_cursor}` pages. */
export const GET = route({
  access: "read",
  params,
  query: itemsQuery,
  response: wireItemsPage,
  handler: ({ ctx, params, query }) => itemsPage(ctx.sql, ctx.workspaceId, reviewerOf(ctx.identity), params.queueId, query),
});

export const POST = route({
  access: "write",
  params,
  body: itemsAdd,
  query: extendQuery,
  response: z.object({ items: z.array(wireItem) }),
  handler: async ({ ctx, params, body, query }) => ({
    items: await addRuns(ctx.sql, ctx.workspaceId, params.queueId, body.items, { extendTraceRetention: query.extend_trace_retention }),
  }),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
