import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { pageStream, wantsStream } from "@/server/http/sse";
import { queryThreads, threadQuery } from "@/server/runs/threads-v2";
import { cursorPage } from "@/server/core/offset-cursor";
import { wireThreadV2 } from "@/server/runs/threads";

/** A page (streamed as JSON Patch events with `Accept: text/event-stream`) of a project's threads, most recently active first (`client.threads.query`). */
export const POST = route({
  access: "read",
  replica: true,
  body: threadQuery,
  response: cursorPage(wireThreadV2),
  handler: ({ ctx, body, request }) =>
    wantsStream(request)
      ? pageStream(request.signal, () => queryThreads(ctx.sql, ctx.workspaceId, body))
      : queryThreads(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
