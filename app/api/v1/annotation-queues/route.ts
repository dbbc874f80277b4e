import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { createQueue, listQueues } from "@/server/review/queues/queues";
import { visibleTo } from "@/server/review/queues/reviewers";
import { queueCreate, queueListQuery } from "@/server/review/queues/schema";
import { wireQueue, wireQueueListed } from "@/server/review/queues/wire";

export const GET = route({
  access: "read",
  query: queueListQuery,
  response: z.array(wireQueueListed),
  handler: ({ ctx, query }) => listQueues(ctx.sql, ctx.workspaceId, query, visibleTo(ctx.identity, query)),
});

export const POST = route({
  access: "write",
  body: queueCreate,
  response: wireQueue,
  handler: ({ ctx, body }) => createQueue(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
