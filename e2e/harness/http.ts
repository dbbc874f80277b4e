import type { Client } from "langsmith";
import type { RunningServer } from "./server";

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP call to the server with its API key; JSON bodies in and out. */
export async function call<T = any>(
  server: Pick<RunningServer, "url" | "apiKey">,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult<T>> {
  const init: RequestInit = { method, headers: { "x-api-key": server.apiKey, ...headers } };
  if (body !== undefined) {
    if (typeof body === "string" || body instanceof Uint8Array) init.body = body as BodyInit;
    else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
  }
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/**
 * Polls until `probe` returns a value (the SDK sends traces in the background). `what` names the
 * condition in the timeout's message (a function: read when the time is up, e.g. a process's output).
 */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  what: string | (() => string) = "a condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A run's attachment link as the SDK reads it (`s3_urls["attachment.<name>"]`), once the run has it. */
export function attachmentLink(client: Client, runId: string, name: string): Promise<{ presigned_url: string; mime_type: string }> {
  return eventually(
    async () => {
      const stored = (await client.readRun(runId).catch(() => null)) as {
        s3_urls?: Record<string, { presigned_url: string; mime_type: string }>;
      } | null;
      return stored?.s3_urls?.[`attachment.${name}`];
    },
    15_000,
    `attachment ${name} of run ${runId}`,
  );
}

/** Every item of a paginated SDK listing (the client pages through by itself). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
