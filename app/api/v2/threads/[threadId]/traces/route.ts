import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { threadTracesQuery, threadTracesV2, wireThreadTurn } from "@/server/runs/threads-v2";
import { cursorPage } from "@/server/core/offset-cursor";

/** A thread's turns, oldest first (`client.threads.listTraces`). Thread ids are the application's own strings. */
export const GET = route({
  access: "read",
  query: threadTracesQuery,
  response: cursorPage(wireThreadTurn),
  handler: ({ ctx, params, query }) => threadTracesV2(ctx.sql, ctx.workspaceId, params.threadId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
