import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { threadTracesQuery, threadTracesV2 } from "@/server/runs/threads-v2";

/** A thread's turns, oldest first (`client.threads.listTraces`). Thread ids are the application's own strings. */
export const GET = route({
  access: "read",
  query: threadTracesQuery,
  handler: ({ ctx, params, query }) => threadTracesV2(ctx.sql, ctx.workspaceId, params.threadId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
