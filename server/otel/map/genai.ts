import { firstNum, isRecord, num, parsed, parsedKeepingText, str, unflatten } from "../attrs";
import { fromChatLike, systemMessage, toChatMessages, toChoices, finishReasonsOf, type ChatMessage, type Choice } from "../messages";
import type { Attributes, OtlpSpan } from "../otlp";
import { lsProvider } from "./provider";
import type { Adapter, Draft, RunType } from "./types";
import { usageFrom } from "./usage";

const OPERATION_RUN_TYPES: Record<string, RunType> = {
  chat: "llm",
  text_completion: "llm",
  completion: "llm",
  generate_content: "llm",
  embeddings: "embedding",
  embedding: "embedding",
  execute_tool: "tool",
  retrieval: "retriever",
  invoke_agent: "chain",
  create_agent: "chain",
  invoke_workflow: "chain",
};

const REQUEST_PARAMS: [string, string][] = [
  ["temperature", "temperature"],
  ["max_tokens", "max_tokens"],
  ["top_p", "top_p"],
  ["top_k", "top_k"],
  ["frequency_penalty", "frequency_penalty"],
  ["presence_penalty", "presence_penalty"],
  ["seed", "seed"],
  ["stop_sequences", "stop"],
  ["choice.count", "n"],
  ["stream", "stream"],
  ["encoding_formats", "encoding_formats"],
];

/** Content may also travel in events (the `operation.details` event, deprecated `gen_ai.content.*`); span attributes win. */
function contentAttributes(span: OtlpSpan): Attributes {
  const merged: Attributes = {};
  for (const e of span.events) {
    if (e.name === "gen_ai.client.inference.operation.details" || e.name.startsWith("gen_ai.content.")) Object.assign(merged, e.attributes);
  }
  return { ...merged, ...span.attributes };
}

const MESSAGE_EVENTS: Record<string, string> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};

/** The deprecated per-message events: body fields as attributes, or the whole body in `gen_ai.event.content`. */
function eventBody(attrs: Attributes): Record<string, unknown> {
  const whole = parsed(attrs["gen_ai.event.content"]);
  if (isRecord(whole)) return whole;
  const flat = unflatten(attrs, "message");
  const body: Record<string, unknown> = { ...attrs };
  if (isRecord(flat)) body.message = { ...flat, ...(isRecord(attrs.message) ? attrs.message : {}) };
  const calls = unflatten(attrs, "tool_calls");
  if (Array.isArray(calls)) body.tool_calls = calls;
  return body;
}

function messagesFromEvents(span: OtlpSpan): ChatMessage[] {
  return span.events
    .filter((e) => e.name in MESSAGE_EVENTS)
    .map((e) => {
      const body = eventBody(e.attributes);
      return fromChatLike({ ...body, role: body.role ?? MESSAGE_EVENTS[e.name], tool_call_id: body.tool_call_id ?? body.id });
    });
}

function choicesFromEvents(span: OtlpSpan): Choice[] {
  return span.events
    .filter((e) => e.name === "gen_ai.choice")
    .map((e, i) => {
      const body = eventBody(e.attributes);
      const message = isRecord(body.message) ? body.message : { content: body.content };
      const calls = message.tool_calls ?? body.tool_calls;
      return {
        index: num(e.attributes, "index") ?? i,
        message: fromChatLike({ role: "assistant", ...message, tool_calls: calls }),
        ...(typeof body.finish_reason === "string" ? { finish_reason: body.finish_reason } : {}),
      };
    });
}

/** Flattened `gen_ai.prompt.N.*` (OpenLLMetry, LangSmith docs), with or without a `.message` level. */
function flattenedMessages(attrs: Attributes, prefix: string): Record<string, unknown>[] | undefined {
  const list = unflatten(attrs, prefix);
  if (!Array.isArray(list)) return undefined;
  return list.filter(isRecord).map((m) => (isRecord(m.message) ? { ...m, ...m.message } : m));
}

/** A whole `gen_ai.prompt`/`gen_ai.completion` value: the LangSmith SDK puts the run's entire inputs/outputs there. */
function wholeValue(value: unknown, key: "input" | "output"): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  // An object is the run's inputs or outputs as they are: stored, its text is spliced, not serialised again.
  const v = parsedKeepingText(value);
  if (isRecord(v)) return v;
  if (Array.isArray(v)) {
    const messages = toChatMessages(v);
    return messages && messages.length ? { messages } : { [key]: v };
  }
  return { [key]: v };
}

function inputsOf(a: Attributes, span: OtlpSpan, runType: RunType | undefined): Record<string, unknown> | undefined {
  const system = systemMessage(a["gen_ai.system_instructions"]);
  const withSystem = (messages: ChatMessage[]) => ({ messages: system ? [system, ...messages] : messages });
  const structured = toChatMessages(a["gen_ai.input.messages"]);
  if (structured) return withSystem(structured);
  const flat = flattenedMessages(a, "gen_ai.prompt");
  if (flat) return withSystem(flat.map(fromChatLike));
  const events = messagesFromEvents(span);
  if (events.length) return withSystem(events);
  const whole = wholeValue(a["gen_ai.prompt"], "input");
  if (whole) return whole;
  if (runType === "tool" && a["gen_ai.tool.call.arguments"] !== undefined) return wholeValue(a["gen_ai.tool.call.arguments"], "input");
  return system ? withSystem([]) : undefined;
}

function outputsOf(a: Attributes, span: OtlpSpan, runType: RunType | undefined): Record<string, unknown> | undefined {
  const reasons = a["gen_ai.response.finish_reasons"];
  const fallbackReasons = Array.isArray(reasons)
    ? reasons.map(String)
    : typeof reasons === "string"
      ? reasons.split(",").map((r) => r.trim())
      : [];
  const withReasons = (choices: Choice[]) => ({
    choices: choices.map((c, i) => (c.finish_reason || !fallbackReasons[i] ? c : { ...c, finish_reason: fallbackReasons[i] })),
  });
  const structured = toChatMessages(a["gen_ai.output.messages"]);
  if (structured) return withReasons(toChoices(structured, finishReasonsOf(a["gen_ai.output.messages"])).choices);
  const flat = flattenedMessages(a, "gen_ai.completion");
  if (flat) {
    const reasonsOfFlat = flat.map((m) => (typeof m.finish_reason === "string" ? m.finish_reason : undefined));
    return withReasons(
      toChoices(
        flat.map((m) => fromChatLike({ role: "assistant", ...m })),
        reasonsOfFlat,
      ).choices,
    );
  }
  const events = choicesFromEvents(span);
  if (events.length) return withReasons(events);
  const whole = wholeValue(a["gen_ai.completion"], "output");
  if (whole) return whole;
  if (runType === "tool" && a["gen_ai.tool.call.result"] !== undefined) return wholeValue(a["gen_ai.tool.call.result"], "output");
  return undefined;
}

function runTypeOf(a: Attributes): RunType | undefined {
  const op = str(a, "gen_ai.operation.name")?.toLowerCase();
  if (op && OPERATION_RUN_TYPES[op]) return OPERATION_RUN_TYPES[op];
  if (!op && str(a, "gen_ai.tool.name")) return "tool";
  return undefined;
}

/** The OpenTelemetry GenAI semantic conventions, current and deprecated (`gen_ai.*` attributes and events). */
export const genaiAdapter: Adapter = {
  name: "genai",
  prefixes: ["gen_ai."],
  map(span: OtlpSpan): Draft {
    const a = contentAttributes(span);
    const runType = runTypeOf(a);
    const model = str(a, "gen_ai.request.model") ?? str(a, "gen_ai.response.model");
    const invocationParams: Record<string, unknown> = {};
    if (model) invocationParams.model = model;
    for (const [key, param] of REQUEST_PARAMS)
      if (a[`gen_ai.request.${key}`] !== undefined) invocationParams[param] = a[`gen_ai.request.${key}`];
    const toolName = str(a, "gen_ai.tool.name");
    if (toolName) invocationParams.tool_name = toolName;
    const tools = parsed(a["gen_ai.tool.definitions"]);
    if (Array.isArray(tools)) invocationParams.tools = tools;
    const details = (key: string) => (isRecord(parsed(a[key])) ? (parsed(a[key]) as Record<string, unknown>) : {});
    const inputDetails = details("gen_ai.usage.input_token_details");
    const outputDetails = details("gen_ai.usage.output_token_details");
    const usage = usageFrom({
      input: firstNum(a, ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"]),
      output: firstNum(a, ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"]),
      total: firstNum(a, ["gen_ai.usage.total_tokens"]),
      cacheRead:
        firstNum(a, ["gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens"]) ?? numberOf(inputDetails.cache_read),
      cacheCreation:
        firstNum(a, ["gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens"]) ??
        numberOf(inputDetails.cache_creation),
      reasoning:
        firstNum(a, ["gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.details.reasoning_tokens", "gen_ai.usage.reasoning_tokens"]) ??
        numberOf(outputDetails.reasoning),
    });
    const metadata: Record<string, unknown> = {};
    for (const [attr, key] of [
      ["gen_ai.conversation.id", "conversation_id"],
      ["gen_ai.agent.name", "agent_name"],
      ["gen_ai.response.id", "response_id"],
      ["gen_ai.response.model", "response_model"],
    ]) {
      if (a[attr] !== undefined) metadata[key] = a[attr];
    }
    const ttft = num(a, "gen_ai.response.time_to_first_chunk");
    return {
      runType,
      name: runType === "tool" ? toolName : undefined,
      provider: lsProvider(str(a, "gen_ai.provider.name") ?? str(a, "gen_ai.system")),
      model,
      invocationParams,
      usage,
      metadata,
      inputs: inputsOf(a, span, runType),
      outputs: outputsOf(a, span, runType),
      firstTokenAfterNanos: ttft !== undefined ? BigInt(Math.round(ttft * 1e9)) : undefined,
    };
  },
};

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
