import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { EgressRefused } from "../egress/http";
import { ingestRuns } from "../ingest/service";
import { streamChat, UpstreamError } from "../models/chat";
import { admitCall } from "../models/admission";
import { resolveConnection } from "../models/connections";
import { assertPlaygroundSpend } from "../spend/limits";
import { chatRequest, type ChatResult } from "../models/types";
import { readRun } from "../runs/read";
import { llmRun } from "./trace";

/** POST /playground/stream: one variant's call, through a connection (the workspace's first when not named). */
export const playgroundCall = z.object({
  connection_id: z.string().max(64).nullish(),
  request: chatRequest,
  /** The project the call is recorded in. */
  project_name: z.string().min(1).max(200).default("playground"),
  /** Where the call came from (a run, a prompt commit), kept in the trace's metadata. */
  source: z.record(z.string(), z.string().max(500)).nullish(),
});
export type PlaygroundCall = z.infer<typeof playgroundCall>;

export interface PlaygroundOutcome {
  run_id: string;
  project_name: string;
  text: string;
  tool_calls: ChatResult["toolCalls"];
  usage: ChatResult["usage"];
  finish_reason: string | null;
  latency_ms: number;
  first_token_ms: number | null;
  total_cost: number | null;
  error: string | null;
}

/**
 * One playground call, in two steps: opening it resolves the connection (a connection that cannot
 * be used is a 4xx before anything is streamed); `run` streams the answer to `onDelta` as the
 * provider sends it, then records the call as a trace in the workspace's playground project (tokens,
 * cost and time to first token derived as for any LLM run) and answers what the page shows. A
 * provider's failure is recorded too, and answered as `error`.
 */
export async function openPlayground(db: Sql, workspaceId: string, call: PlaygroundCall) {
  const connection = await resolveConnection(db, workspaceId, call.connection_id);
  await assertPlaygroundSpend(db, workspaceId);
  await admitCall(connection);
  const req = { ...call.request, model: call.request.model || connection.defaultModel };
  const run = async (onDelta: (text: string) => void, signal?: AbortSignal): Promise<PlaygroundOutcome> => {
    const id = randomUUID();
    const startedAt = new Date();
    let result: ChatResult | null = null;
    let error: string | null = null;
    let firstToken: string | undefined;
    try {
      result = await streamChat(
        connection,
        req,
        (text) => {
          if (firstToken === undefined && text) firstToken = text;
          onDelta(text);
        },
        signal,
      );
    } catch (e) {
      if (e instanceof EgressRefused) throw badRequest(`The connection "${connection.name}" cannot be called: ${e.message}`);
      if (!(e instanceof UpstreamError) && !signal?.aborted) throw e;
      error = signal?.aborted ? "Stopped before the answer was complete." : (e as Error).message;
    }
    await ingestRuns(db, workspaceId, {
      post: [
        llmRun({
          id,
          traceId: id,
          projectName: call.project_name,
          connection,
          request: req,
          result,
          error,
          startedAt,
          metadata: call.source ?? {},
          tags: ["playground"],
          firstToken,
        }),
      ],
    });
    const recorded = await readRun(db, workspaceId, id);
    return {
      run_id: id,
      project_name: call.project_name,
      text: result?.text ?? "",
      tool_calls: result?.toolCalls ?? [],
      usage: result?.usage ?? null,
      finish_reason: result?.finishReason ?? null,
      latency_ms: (result?.endedAt ?? new Date()).getTime() - startedAt.getTime(),
      first_token_ms: result?.firstTokenAt ? result.firstTokenAt.getTime() - startedAt.getTime() : null,
      total_cost: recorded?.total_cost == null ? null : Number(recorded.total_cost),
      error,
    };
  };
  return { connection, run };
}
