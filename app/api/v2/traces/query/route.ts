import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { pageStream, wantsStream } from "@/server/http/sse";
import { queryTraces, traceQuery, wireTraceV2 } from "@/server/runs/traces-v2";
import { cursorPage } from "@/server/core/offset-cursor";

/** A page (streamed as JSON Patch events with `Accept: text/event-stream`) of a project's traces, each its root run and totals (`client.traces.query`). */
export const POST = route({
  access: "read",
  body: traceQuery,
  response: cursorPage(wireTraceV2),
  handler: ({ ctx, body, request }) =>
    wantsStream(request)
      ? pageStream(request.signal, () => queryTraces(ctx.sql, ctx.workspaceId, body))
      : queryTraces(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
