import { createParser } from "eventsource-parser";
import type { RouterOutputs } from "@/app/trpc-types";

export type ChatRequest = RouterOutputs["playground"]["fromRun"]["request"];
export type ChatMessage = ChatRequest["messages"][number];

/** What the server answers when the call ends (POST /playground/stream's `done` or `error`). */
export interface Outcome {
  run_id?: string;
  text?: string;
  /** Tool calls the model answered with (a tool-call answer may carry no text at all). */
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  finish_reason?: string | null;
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  latency_ms?: number;
  first_token_ms?: number | null;
  total_cost?: number | null;
  error?: string | null;
  detail?: string;
}

type Caller = { workspaceId: string; userId: string };

/**
 * POSTs to one of the playground's streaming routes as the signed-in user (session cookie plus
 * `x-user-id`) and hands each server-sent event to `onEvent` as it arrives. Resolves with the HTTP
 * problem's detail when the route answered a 4xx before streaming, else null.
 */
async function postEvents(
  path: string,
  caller: Caller,
  body: unknown,
  onEvent: (event: string, data: unknown) => void,
  signal?: AbortSignal,
): Promise<string | null> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-tenant-id": caller.workspaceId, "x-user-id": caller.userId },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) {
    const problem = (await response.json().catch(() => ({}))) as { detail?: string };
    return problem.detail ?? `HTTP ${response.status}`;
  }
  const parser = createParser({ onEvent: (event) => onEvent(event.event ?? "message", JSON.parse(event.data)) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return null;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

/** Runs one variant through POST /api/v1/playground/stream, handing each piece of text to `onDelta` as it arrives. */
export async function runVariant(
  caller: Caller,
  body: { connection_id: string | null; request: ChatRequest; source?: Record<string, string> | null },
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<Outcome> {
  let outcome: Outcome = { error: "The answer ended before the server said it was done." };
  const problem = await postEvents(
    "/api/v1/playground/stream",
    caller,
    body,
    (event, data) => {
      const d = data as Outcome & { text?: string };
      if (event === "delta") onDelta(d.text ?? "");
      else outcome = event === "error" ? { ...d, error: d.error ?? d.detail ?? "failed" } : d;
    },
    signal,
  );
  return problem ? { error: problem } : outcome;
}

export interface ExperimentDone {
  experiment_id: string;
  experiment_name: string;
  dataset_id: string;
  runs: number;
  failed: number;
}

/** "Run over dataset" through POST /api/v1/playground/experiments: progress as examples finish, then the experiment. */
export async function runExperiment(
  caller: Caller,
  body: {
    connection_id: string | null;
    request: ChatRequest;
    dataset_id: string;
    experiment_name?: string | null;
    evaluators: "exact_match"[];
  },
  onProgress: (done: number, total: number) => void,
): Promise<ExperimentDone | { error: string }> {
  let result: ExperimentDone | { error: string } = { error: "The run ended before the server said it was done." };
  const problem = await postEvents("/api/v1/playground/experiments", caller, body, (event, data) => {
    const d = data as { done: number; total: number } & ExperimentDone & { detail?: string };
    if (event === "progress") onProgress(d.done, d.total);
    else result = event === "error" ? { error: d.detail ?? "failed" } : d;
  });
  return problem ? { error: problem } : result;
}
