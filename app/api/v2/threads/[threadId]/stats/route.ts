import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { threadStatsQuery, threadStatsV2, wireThreadStats } from "@/server/runs/thread-stats-v2";

/** One thread's totals over its turns (`client.threads.stats`). */
export const GET = route({
  access: "read",
  query: threadStatsQuery,
  response: wireThreadStats,
  handler: ({ ctx, params, query }) => threadStatsV2(ctx.sql, ctx.workspaceId, params.threadId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
