import { connect } from "node:net";
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

/** Retries `probe` until it returns without throwing (ingest is asynchronous for the client); the last error when time is up. */
export async function retrying<T>(probe: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 150));
    }
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

/** One raw HTTP/1.1 request, header lines exactly as given (the Python client's two key lines). */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headerLines: string[],
  body = "",
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: close", ...headerLines];
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      // Written without ending the socket: the server closes it after its answer (Connection: close).
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(text.split(" ")[1]), text });
    });
  });
}
