import { createParser } from "eventsource-parser";
import type { RouterOutputs } from "@/app/trpc-types";

export type ChatRequest = RouterOutputs["playground"]["fromRun"]["request"];
export type ChatMessage = ChatRequest["messages"][number];

/** What the server answers when the call ends (POST /playground/stream's `done` or `error`). */
export interface Outcome {
  run_id?: string;
  text?: string;
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  latency_ms?: number;
  first_token_ms?: number | null;
  total_cost?: number | null;
  error?: string | null;
  detail?: string;
}

/**
 * Runs one variant through POST /api/v1/playground/stream (the REST API, as the signed-in user:
 * session cookie plus `x-user-id`), handing each piece of text to `onDelta` as it arrives;
 * resolves with the outcome. A 4xx before streaming resolves as an error outcome.
 */
export async function runVariant(
  caller: { workspaceId: string; userId: string },
  body: { connection_id: string | null; request: ChatRequest; source?: Record<string, string> | null },
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<Outcome> {
  const response = await fetch("/api/v1/playground/stream", {
    method: "POST",
    headers: { "content-type": "application/json", "x-tenant-id": caller.workspaceId, "x-user-id": caller.userId },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) {
    const problem = (await response.json().catch(() => ({}))) as { detail?: string };
    return { error: problem.detail ?? `HTTP ${response.status}` };
  }
  let outcome: Outcome = { error: "The answer ended before the server said it was done." };
  const parser = createParser({
    onEvent: (event) => {
      const data = JSON.parse(event.data) as Outcome & { text?: string };
      if (event.event === "delta") onDelta(data.text ?? "");
      else outcome = event.event === "error" ? { ...data, error: data.error ?? data.detail ?? "failed" } : data;
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return outcome;
}

/** `{name}` template variables filled in (f-string style; `{{` and `}}` are literal braces). */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) =>
    name === undefined ? m[0] : (values[name] ?? m),
  );
}
