import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { openPlayground, playgroundCall } from "@/server/playground/run";
import { sseStream } from "@/server/http/sse";

/**
 * One playground call, answered as server-sent events while the model streams: `delta` events
 * (`{"text": …}`) as the provider sends text, then `done` with the recorded run, usage, cost,
 * latency and time to first token (or `error` with what went wrong).
 */
export const POST = route({
  answers: {
    contentType: "text/event-stream",
    description:
      "Server-sent events: `delta` (`{text}`) as the model streams, then `done` with the recorded run, usage, cost and latency, or `error`.",
  },
  access: "write",
  body: playgroundCall,
  handler: async ({ ctx, body, request }) => {
    const call = await openPlayground(ctx.sql, ctx.workspaceId, body);
    return sseStream(request.signal, async (send) => {
      const outcome = await call.run((text) => send("delta", { text }), request.signal);
      send(outcome.error ? "error" : "done", outcome);
    });
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
