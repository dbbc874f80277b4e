import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { createQueue, listQueues } from "@/server/review/queues/queues";
import { queueCreate, queueListQuery } from "@/server/review/queues/schema";

export const GET = route({
  access: "read",
  query: queueListQuery,
  handler: ({ ctx, query }) => listQueues(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "write",
  body: queueCreate,
  handler: ({ ctx, body }) => createQueue(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
