import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { pageStream, wantsStream } from "@/server/http/sse";
import { queryRunsV2, runQueryV2 } from "@/server/runs/query-v2";
import { cursorPage } from "@/server/core/offset-cursor";
import { wireRunV2 } from "@/server/runs/v2";

/** A page (streamed as JSON Patch events with `Accept: text/event-stream`) of runs in the v2 shape (`client.runs.query`), followed with `next_cursor`. */
export const POST = route({
  access: "read",
  replica: true,
  body: runQueryV2,
  response: cursorPage(wireRunV2),
  handler: ({ ctx, body, request }) =>
    wantsStream(request)
      ? pageStream(request.signal, () => queryRunsV2(ctx.sql, ctx.workspaceId, body))
      : queryRunsV2(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
