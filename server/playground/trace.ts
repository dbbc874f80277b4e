import { fillTemplate } from "../generate/manifest";
import type { ChatMessage, ChatRequest, ChatResult, Connection } from "../models/types";

/** The messages with `{variables}` filled into every text (a prompt's inputs, a dataset example's inputs). */
export function fillMessages(messages: ChatMessage[], values: Record<string, unknown>): ChatMessage[] {
  return messages.map((m) => ({
    ...m,
    content:
      typeof m.content === "string"
        ? fillTemplate(m.content, values)
        : (m.content?.map((p) => (p.type === "text" ? { ...p, text: fillTemplate(String(p.text ?? ""), values) } : p)) ?? null),
  }));
}

/**
 * A model call as an LLM run for ingest: the messages (and tools) in, the answer out with its
 * usage, the first token as a `new_token` event, the invocation parameters and the provider and
 * model in metadata, so tokens, cost and time to first token are derived as for any LLM run.
 */
export function llmRun(call: {
  id: string;
  traceId: string;
  parentRunId?: string;
  projectName: string;
  connection: Connection;
  request: ChatRequest;
  result: ChatResult | null;
  error: string | null;
  startedAt: Date;
  metadata?: Record<string, string>;
  tags?: string[];
  /** The first streamed piece of text, kept on the `new_token` event. */
  firstToken?: string;
}) {
  const { connection, request: req, result } = call;
  return {
    id: call.id,
    trace_id: call.traceId,
    ...(call.parentRunId ? { parent_run_id: call.parentRunId } : {}),
    name: connection.provider === "anthropic" ? "ChatAnthropic" : "ChatOpenAI",
    run_type: "llm",
    session_name: call.projectName,
    start_time: (result?.startedAt ?? call.startedAt).toISOString(),
    end_time: (result?.endedAt ?? new Date()).toISOString(),
    inputs: { messages: req.messages, ...(req.tools?.length ? { tools: req.tools } : {}) },
    outputs: result
      ? {
          choices: [
            {
              message: { role: "assistant", content: result.text, ...(result.toolCalls.length ? { tool_calls: result.toolCalls } : {}) },
              finish_reason: result.finishReason,
            },
          ],
          ...(result.usage ? { usage_metadata: result.usage } : {}),
        }
      : null,
    error: call.error,
    events: result?.firstTokenAt
      ? [
          {
            name: "new_token",
            time: result.firstTokenAt.toISOString(),
            ...(call.firstToken !== undefined ? { kwargs: { token: call.firstToken } } : {}),
          },
        ]
      : [],
    extra: {
      invocation_params: {
        model: req.model,
        temperature: req.temperature ?? null,
        max_tokens: req.max_tokens ?? null,
        stop: req.stop ?? null,
        tool_choice: req.tool_choice ?? null,
        response_format: req.response_format ?? null,
      },
      metadata: { ls_provider: connection.provider, ls_model_name: req.model, connection: connection.name, ...call.metadata },
    },
    ...(call.tags ? { tags: call.tags } : {}),
  };
}
