import { createParser, type EventSourceMessage } from "eventsource-parser";
import { EgressRefused, postJsonStream } from "../egress/http";
import { completionsUrl, messagesUrl } from "./urls";
import { toAnthropic } from "./anthropic";
import type { ChatRequest, ChatResult, Connection, ToolCall } from "./types";

/** A provider's refusal or failure: the HTTP status, its `Retry-After` in seconds, and what it said. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

const snippet = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

function retryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

function openAiBody(req: ChatRequest) {
  return {
    model: req.model,
    messages: req.messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(req.temperature != null ? { temperature: req.temperature } : {}),
    ...(req.max_tokens != null ? { max_tokens: req.max_tokens } : {}),
    ...(req.stop?.length ? { stop: req.stop } : {}),
    ...(req.tools?.length ? { tools: req.tools, ...(req.tool_choice != null ? { tool_choice: req.tool_choice } : {}) } : {}),
    ...(req.response_format != null ? { response_format: req.response_format } : {}),
  };
}

interface OpenAiChunk {
  choices?: {
    delta?: { content?: string; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  usage?: { output_tokens?: number };
  error?: { message?: string };
}

/** What one stream's events add up to, fed event by event. */
function collector(provider: Connection["provider"], onDelta: (text: string) => void) {
  const result = {
    text: "",
    toolCalls: [] as ToolCall[],
    usage: null as ChatResult["usage"],
    finishReason: null as string | null,
    firstTokenAt: null as Date | null,
  };
  const text = (t: string) => {
    if (!t) return;
    result.firstTokenAt ??= new Date();
    result.text += t;
    onDelta(t);
  };
  const onOpenAi = (data: OpenAiChunk) => {
    const choice = data?.choices?.[0];
    if (choice?.delta?.content) text(choice.delta.content);
    for (const call of choice?.delta?.tool_calls ?? []) {
      result.firstTokenAt ??= new Date();
      const slot = (result.toolCalls[call.index ?? 0] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.function.name += call.function.name;
      if (call.function?.arguments) slot.function.arguments += call.function.arguments;
    }
    if (choice?.finish_reason) result.finishReason = choice.finish_reason;
    if (data?.usage) {
      const u = data.usage;
      result.usage = { input_tokens: u.prompt_tokens ?? 0, output_tokens: u.completion_tokens ?? 0, total_tokens: u.total_tokens ?? 0 };
    }
  };
  const onAnthropic = (data: AnthropicEvent) => {
    if (data?.type === "message_start") {
      const input = data.message?.usage?.input_tokens ?? 0;
      result.usage = { input_tokens: input, output_tokens: 0, total_tokens: input };
    } else if (data?.type === "content_block_start" && data.content_block?.type === "tool_use") {
      result.toolCalls[data.index ?? 0] = {
        id: data.content_block.id ?? "",
        type: "function",
        function: { name: data.content_block.name ?? "", arguments: "" },
      };
    } else if (data?.type === "content_block_delta") {
      const call = result.toolCalls[data.index ?? 0];
      if (data.delta?.type === "text_delta") text(data.delta.text ?? "");
      if (data.delta?.type === "input_json_delta" && call) call.function.arguments += data.delta.partial_json ?? "";
    } else if (data?.type === "message_delta") {
      result.finishReason = data.delta?.stop_reason ?? result.finishReason;
      const output = data.usage?.output_tokens ?? 0;
      const input = result.usage?.input_tokens ?? 0;
      result.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
    } else if (data?.type === "error") {
      throw new UpstreamError(null, `The model provider reported an error: ${data.error?.message ?? "unknown"}`);
    }
  };
  const onEvent = (event: EventSourceMessage) => {
    if (event.data === "[DONE]") return;
    const data = JSON.parse(event.data) as OpenAiChunk & AnthropicEvent;
    if (provider === "anthropic") onAnthropic(data);
    else onOpenAi(data);
  };
  return { result, onEvent };
}

/**
 * One chat call, streamed: `onDelta` gets each piece of text as the provider sends it. OpenAI-
 * compatible servers get `/chat/completions` with `stream_options.include_usage`; Anthropic gets
 * `/v1/messages` in its own shape. Answers the whole text, tool calls, usage and the time of the
 * first token. Throws UpstreamError for a non-2xx answer (with its Retry-After) or a broken
 * stream, EgressRefused for a URL we may not call.
 */
export async function streamChat(
  connection: Connection,
  req: ChatRequest,
  onDelta: (text: string) => void = () => {},
  signal?: AbortSignal,
): Promise<ChatResult> {
  const startedAt = new Date();
  const anthropic = connection.provider === "anthropic";
  const url = anthropic ? messagesUrl(connection.baseUrl) : completionsUrl(connection.baseUrl);
  const auth: Record<string, string> = anthropic
    ? { ...(connection.apiKey ? { "x-api-key": connection.apiKey } : {}), "anthropic-version": "2023-06-01" }
    : connection.apiKey
      ? { authorization: `Bearer ${connection.apiKey}` }
      : {};
  let answer;
  try {
    answer = await postJsonStream(url, anthropic ? toAnthropic(req) : openAiBody(req), {
      headers: { ...connection.headers, ...auth },
      accept: "text/event-stream",
      timeoutMs: 120_000,
      signal,
    });
  } catch (error) {
    if (error instanceof EgressRefused) throw error;
    throw new UpstreamError(null, `The model provider could not be reached: ${(error as Error).message}`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    let text = "";
    for await (const chunk of answer.body as AsyncIterable<Buffer>) if ((text += chunk.toString("utf8")).length > 2000) break;
    answer.body.destroy();
    throw new UpstreamError(
      answer.status,
      `The model provider answered HTTP ${answer.status}: ${snippet(text)}`,
      retryAfter(answer.headers["retry-after"]),
    );
  }
  const { result, onEvent } = collector(connection.provider, onDelta);
  const parser = createParser({ onEvent });
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) parser.feed(chunk.toString("utf8"));
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError(null, `The model provider's stream broke off: ${(error as Error).message}`);
  }
  return { ...result, toolCalls: result.toolCalls.filter(Boolean), model: req.model, startedAt, endedAt: new Date() };
}
