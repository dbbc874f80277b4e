import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { threadAggregateQuery, threadAggregateStats, wireThreadAggregates } from "@/server/runs/thread-stats-v2";

/** Statistics over a project's threads (`client.threads.aggregateStats`). */
export const POST = route({
  access: "read",
  replica: true,
  body: threadAggregateQuery,
  response: wireThreadAggregates,
  handler: ({ ctx, body }) => threadAggregateStats(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
