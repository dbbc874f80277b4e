import { AppError } from "../core/errors";

/**
 * A `text/event-stream` answer whose events `work` sends as they happen. A failure after the
 * stream began is sent as an `error` event (`{"detail": …}`), since the status is already 200.
 */
export function sseStream(signal: AbortSignal, work: (send: (event: string, data: unknown) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) => {
        if (!signal.aborted) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      try {
        await work(send);
      } catch (error) {
        const detail = error instanceof AppError ? error.message : "The call failed on the server.";
        if (!(error instanceof AppError)) console.error("stream failed", error);
        send("error", { detail, status: error instanceof AppError ? error.status : 500 });
      } finally {
        try {
          controller.close();
        } catch {
          /* the client went away */
        }
      }
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
}
