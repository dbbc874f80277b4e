import { firstNum, isRecord, num, parsed, str, withPrefix } from "../attrs";
import { collapse, toChoices, toolCall, type ChatMessage, type ContentPart, type ToolCall } from "../messages";
import type { Attributes, OtlpSpan } from "../otlp";
import { lsProvider } from "./provider";
import type { Adapter, Draft, RunType } from "./types";
import { usageFrom } from "./usage";

const LLM_OPERATIONS = ["ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"];
const EMBED_OPERATIONS = ["ai.embed.doEmbed", "ai.embedMany.doEmbed"];

function runTypeOf(operationId: string | undefined): RunType | undefined {
  if (!operationId) return undefined;
  if (LLM_OPERATIONS.includes(operationId)) return "llm";
  if (EMBED_OPERATIONS.includes(operationId)) return "embedding";
  if (operationId === "ai.toolCall") return "tool";
  return "chain";
}

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/** An AI SDK prompt part (camelCase, v4–v6 spellings) → an OpenAI content part or tool call. */
function part(p: Record<string, unknown>): ContentPart | ToolCall | ChatMessage | undefined {
  switch (p.type) {
    case "text":
      return { type: "text", text: asText(p.text) };
    case "reasoning":
      return { type: "reasoning", reasoning: asText(p.text) };
    case "image": {
      const image = asText(p.image);
      const mime = p.mimeType ?? p.mediaType ?? "image/png";
      return { type: "image_url", image_url: { url: /^(https?:|data:)/.test(image) ? image : `data:${mime};base64,${image}` } };
    }
    case "file":
      return { type: "file", file: { file_data: asText(p.data), mime_type: p.mediaType ?? p.mimeType } };
    case "tool-call":
      return toolCall(p.toolCallId, p.toolName, p.input ?? p.args);
    case "tool-result":
      return {
        role: "tool",
        tool_call_id: asText(p.toolCallId),
        content: asText(isRecord(p.output) && "value" in p.output ? p.output.value : (p.output ?? p.result)),
      };
    default:
      return p as ContentPart;
  }
}

/** `ai.prompt.messages`: `{role, content: string | parts[]}`; tool results become one tool message each. */
function promptMessages(value: unknown): ChatMessage[] | undefined {
  const list = parsed(value);
  if (!Array.isArray(list)) return undefined;
  return list.filter(isRecord).flatMap((m): ChatMessage[] => {
    const role = asText(m.role ?? "user");
    if (!Array.isArray(m.content)) return [{ role, content: m.content === undefined ? null : asText(m.content) }];
    const mapped = m.content.filter(isRecord).map(part);
    const toolMessages = mapped.filter((x): x is ChatMessage => !!x && "role" in x);
    const calls = mapped.filter((x): x is ToolCall => !!x && "function" in x);
    const parts = mapped.filter((x): x is ContentPart => !!x && !("role" in x) && !("function" in x));
    const own: ChatMessage[] =
      parts.length || calls.length ? [{ role, content: collapse(parts), ...(calls.length ? { tool_calls: calls } : {}) }] : [];
    return [...own, ...toolMessages];
  });
}

/** `ai.prompt` on the outer span: `{system?, prompt?, messages?}`. */
function promptInputs(value: unknown): Record<string, unknown> | undefined {
  const v = parsed(value);
  if (!isRecord(v)) return v === undefined ? undefined : { input: v };
  const messages = promptMessages(v.messages) ?? (typeof v.prompt === "string" ? [{ role: "user", content: v.prompt }] : undefined);
  if (!messages) return v;
  return { messages: typeof v.system === "string" ? [{ role: "system", content: v.system }, ...messages] : messages };
}

function responseCalls(a: Attributes): ToolCall[] {
  const list = parsed(a["ai.response.toolCalls"] ?? a["ai.result.toolCalls"]);
  return Array.isArray(list) ? list.filter(isRecord).map((c) => toolCall(c.toolCallId, c.toolName, c.input ?? c.args)) : [];
}

function llmOutputs(a: Attributes): Record<string, unknown> | undefined {
  const text = str(a, "ai.response.text") ?? str(a, "ai.result.text") ?? str(a, "ai.response.object") ?? str(a, "ai.result.object");
  const calls = responseCalls(a);
  if (text === undefined && calls.length === 0) return undefined;
  const message: ChatMessage = { role: "assistant", content: text ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
  return toChoices([message], [str(a, "ai.response.finishReason")]);
}

function wrapped(value: unknown, key: "input" | "output"): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const v = parsed(value);
  return isRecord(v) ? v : { [key]: v };
}

/** Usage: flat `ai.usage.*` numbers (v4 prompt/completion, v5+ input/output), cache and reasoning breakdowns. */
function usageOf(a: Attributes) {
  const provider = parsed(a["ai.response.providerMetadata"]);
  const anthropic = isRecord(provider) && isRecord(provider.anthropic) ? provider.anthropic : {};
  const cacheCreation = typeof anthropic.cacheCreationInputTokens === "number" ? anthropic.cacheCreationInputTokens : undefined;
  return usageFrom({
    input: firstNum(a, ["ai.usage.inputTokens", "ai.usage.promptTokens"]),
    output: firstNum(a, ["ai.usage.outputTokens", "ai.usage.completionTokens"]),
    total: firstNum(a, ["ai.usage.totalTokens"]),
    cacheRead: firstNum(a, ["ai.usage.cachedInputTokens", "ai.usage.inputTokenDetails.cacheReadTokens"]),
    cacheCreation: firstNum(a, ["ai.usage.inputTokenDetails.cacheWriteTokens"]) ?? cacheCreation,
    reasoning: firstNum(a, ["ai.usage.reasoningTokens", "ai.usage.outputTokenDetails.reasoningTokens"]),
  });
}

const SETTINGS: [string, string][] = [
  ["maxOutputTokens", "max_tokens"],
  ["maxTokens", "max_tokens"],
  ["temperature", "temperature"],
  ["topP", "top_p"],
  ["topK", "top_k"],
  ["frequencyPenalty", "frequency_penalty"],
  ["presencePenalty", "presence_penalty"],
  ["seed", "seed"],
  ["stopSequences", "stop"],
];

/** The Vercel AI SDK's `ai.*` attributes, mapped as LangSmith's own exporter rewrites them. */
export const vercelAdapter: Adapter = {
  name: "vercel-ai",
  prefixes: ["ai."],
  map(span: OtlpSpan): Draft | null {
    const a = span.attributes;
    const operationId = str(a, "ai.operationId");
    if (!operationId && !Object.keys(a).some((k) => k.startsWith("ai."))) return null;
    const runType = runTypeOf(operationId);
    const metadata: Record<string, unknown> = { ...withPrefix(a, "ai.telemetry.metadata.") };
    const { ls_project_name: sessionName, ls_project_id: sessionId, ls_run_name: runName } = metadata;
    delete metadata.ls_project_name;
    delete metadata.ls_project_id;
    delete metadata.ls_run_name;
    const model = str(a, "ai.model.id");
    const invocationParams: Record<string, unknown> = model ? { model } : {};
    for (const [setting, param] of SETTINGS)
      if (a[`ai.settings.${setting}`] !== undefined) invocationParams[param] = a[`ai.settings.${setting}`];
    const tools = a["ai.prompt.tools"];
    if (Array.isArray(tools)) invocationParams.tools = tools.map(parsed);
    if (operationId === "ai.streamText.doStream" || operationId === "ai.streamObject.doStream") invocationParams.stream = true;
    const msToFirstChunk = num(a, "ai.response.msToFirstChunk") ?? num(a, "ai.stream.msToFirstChunk");

    let inputs: Record<string, unknown> | undefined;
    let outputs: Record<string, unknown> | undefined;
    if (runType === "tool") {
      inputs = wrapped(a["ai.toolCall.input"] ?? a["ai.toolCall.args"], "input");
      outputs = wrapped(a["ai.toolCall.output"] ?? a["ai.toolCall.result"], "output");
    } else if (runType === "embedding") {
      inputs = wrapped(a["ai.values"] ?? a["ai.value"], "input");
    } else if (runType === "llm") {
      const messages = promptMessages(a["ai.prompt.messages"]);
      inputs = messages ? { messages } : promptInputs(a["ai.prompt"]);
      outputs = llmOutputs(a);
    } else {
      inputs = promptInputs(a["ai.prompt"]);
      const text = a["ai.response.text"] ?? a["ai.result.text"] ?? a["ai.response.object"] ?? a["ai.result.object"];
      outputs = wrapped(text, "output");
    }
    return {
      runType,
      name: runType === "tool" ? str(a, "ai.toolCall.name") : typeof runName === "string" ? runName : undefined,
      sessionName: typeof sessionName === "string" ? sessionName : undefined,
      sessionId: typeof sessionId === "string" ? sessionId : undefined,
      inputs,
      outputs,
      model,
      provider: lsProvider(str(a, "ai.model.provider")),
      invocationParams,
      metadata,
      usage: usageOf(a),
      firstTokenAfterNanos: msToFirstChunk !== undefined ? BigInt(Math.round(msToFirstChunk * 1e6)) : undefined,
    };
  },
};
