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

/**
 * A page of a v2 query as the 0.12 client's streaming variants read it (`iterQueryStream`): JSON
 * Patch operations on the page document — the empty page, each item appended as it is ready, the
 * next cursor — then `end`.
 */
export function pageStream(signal: AbortSignal, load: () => Promise<{ items: unknown[]; next_cursor: string | null }>): Response {
  return sseStream(signal, async (send) => {
    send("data", [{ op: "add", path: "", value: { items: [], next_cursor: null } }]);
    const page = await load();
    for (const item of page.items) send("data", [{ op: "add", path: "/items/-", value: item }]);
    send("data", [{ op: "replace", path: "/next_cursor", value: page.next_cursor }]);
    send("end", {});
  });
}

/** Whether the caller asked for the streamed variant (`Accept: text/event-stream`). */
export const wantsStream = (request: Request) => (request.headers.get("accept") ?? "").includes("text/event-stream");
