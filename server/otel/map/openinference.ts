import { isRecord, num, parsed, str, unflatten } from "../attrs";
import { collapse, fromChatLike, toChoices, toolCall, type ChatMessage, type ContentPart } from "../messages";
import type { Attributes, OtlpSpan } from "../otlp";
import { lsProvider } from "./provider";
import type { Adapter, Draft, RunType } from "./types";
import { usageFrom } from "./usage";

const KINDS: Record<string, RunType> = {
  LLM: "llm",
  EMBEDDING: "embedding",
  RETRIEVER: "retriever",
  RERANKER: "retriever",
  TOOL: "tool",
  PROMPT: "prompt",
  CHAIN: "chain",
  AGENT: "chain",
  GUARDRAIL: "chain",
  EVALUATOR: "chain",
};

/** `{message: {role, content, contents: [{message_content}], tool_calls: [{tool_call}]}}` → a chat message. */
function message(entry: unknown): ChatMessage | undefined {
  const m = isRecord(entry) && isRecord(entry.message) ? entry.message : undefined;
  if (!m) return undefined;
  const parts: ContentPart[] = [];
  for (const c of Array.isArray(m.contents) ? m.contents : []) {
    const mc = isRecord(c) && isRecord(c.message_content) ? c.message_content : undefined;
    if (!mc) continue;
    const image = isRecord(mc.image) && isRecord(mc.image.image) ? mc.image.image : undefined;
    if (image?.url) parts.push({ type: "image_url", image_url: { url: String(image.url) } });
    else if (mc.text !== undefined) parts.push({ type: "text", text: String(mc.text) });
  }
  const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : [])
    .map((c) => (isRecord(c) && isRecord(c.tool_call) ? c.tool_call : undefined))
    .filter((c): c is Record<string, unknown> => !!c)
    .map((c) => {
      const fn = isRecord(c.function) ? c.function : {};
      return toolCall(c.id, fn.name, fn.arguments);
    });
  const base = fromChatLike({ role: m.role, content: m.content, tool_call_id: m.tool_call_id, name: m.name });
  if (parts.length && base.content === null) base.content = collapse(parts);
  if (calls.length) base.tool_calls = calls;
  return base;
}

function messages(a: Attributes, prefix: string): ChatMessage[] | undefined {
  const list = unflatten(a, prefix);
  if (!Array.isArray(list)) return undefined;
  return list.map(message).filter((m): m is ChatMessage => !!m);
}

/** `input.value` with its mime type: JSON objects are the inputs themselves, text is wrapped. */
function value(a: Attributes, key: "input" | "output"): Record<string, unknown> | undefined {
  const raw = a[`${key}.value`];
  if (raw === undefined || raw === null) return undefined;
  const isJson = str(a, `${key}.mime_type`) === "application/json" || typeof raw !== "string";
  const v = isJson ? parsed(raw) : raw;
  return isRecord(v) ? v : { [key]: v };
}

function documents(a: Attributes): Record<string, unknown> | undefined {
  const list = unflatten(a, "retrieval.documents");
  if (!Array.isArray(list)) return undefined;
  return {
    documents: list.map((d) => {
      const doc = isRecord(d) && isRecord(d.document) ? d.document : {};
      const metadata = parsed(doc.metadata);
      return {
        page_content: doc.content ?? "",
        metadata: isRecord(metadata) ? metadata : {},
        ...(doc.id !== undefined ? { id: doc.id } : {}),
        ...(doc.score !== undefined ? { score: doc.score } : {}),
      };
    }),
  };
}

function embeddingInputs(a: Attributes): Record<string, unknown> | undefined {
  const list = unflatten(a, "embedding.embeddings");
  if (!Array.isArray(list)) return undefined;
  const texts = list.map((e) => (isRecord(e) && isRecord(e.embedding) ? e.embedding.text : undefined)).filter((t) => t !== undefined);
  return texts.length ? { input: texts } : undefined;
}

function isOpenInference(a: Attributes): boolean {
  return Object.keys(a).some(
    (k) =>
      k === "openinference.span.kind" ||
      k === "input.value" ||
      k === "output.value" ||
      k.startsWith("llm.input_messages.") ||
      k.startsWith("llm.token_count."),
  );
}

/** Arize OpenInference: `openinference.span.kind`, `input.value`/`output.value`, flattened `llm.*` messages and token counts. */
export const openinferenceAdapter: Adapter = {
  name: "openinference",
  prefixes: [
    "openinference.",
    "llm.",
    "input.",
    "output.",
    "retrieval.",
    "embedding.",
    "tool.",
    "metadata",
    "tag.",
    "session.id",
    "user.id",
  ],
  map(span: OtlpSpan): Draft | null {
    const a = span.attributes;
    if (!isOpenInference(a)) return null;
    const runType = KINDS[str(a, "openinference.span.kind")?.toUpperCase() ?? ""];
    const inMessages = messages(a, "llm.input_messages");
    const outMessages = messages(a, "llm.output_messages");
    const meta = parsed(a.metadata);
    const metadata: Record<string, unknown> = isRecord(meta) ? { ...meta } : {};
    if (a["session.id"] !== undefined) metadata.session_id = a["session.id"];
    if (a["user.id"] !== undefined) metadata.user_id = a["user.id"];
    const params = parsed(a["llm.invocation_parameters"]);
    const model = str(a, "llm.model_name") ?? str(a, "embedding.model_name");
    const tags = a["tag.tags"];
    const tools = unflatten(a, "llm.tools");
    const toolSchemas = Array.isArray(tools)
      ? tools.map((t) => (isRecord(t) && isRecord(t.tool) ? parsed(t.tool.json_schema) : undefined)).filter(Boolean)
      : [];
    return {
      runType,
      name: runType === "tool" ? str(a, "tool.name") : undefined,
      inputs: inMessages?.length ? { messages: inMessages } : (value(a, "input") ?? embeddingInputs(a)),
      outputs: outMessages?.length ? toChoices(outMessages) : (documents(a) ?? value(a, "output")),
      model,
      provider: lsProvider(str(a, "llm.provider") ?? str(a, "llm.system")),
      invocationParams: {
        ...(isRecord(params) ? params : {}),
        ...(model ? { model } : {}),
        ...(toolSchemas.length ? { tools: toolSchemas } : {}),
      },
      metadata,
      tags: Array.isArray(tags) ? tags.map(String) : undefined,
      usage: usageFrom({
        input: num(a, "llm.token_count.prompt"),
        output: num(a, "llm.token_count.completion"),
        total: num(a, "llm.token_count.total"),
        cacheRead: num(a, "llm.token_count.prompt_details.cache_read"),
        cacheCreation: num(a, "llm.token_count.prompt_details.cache_write"),
        inputAudio: num(a, "llm.token_count.prompt_details.audio"),
        reasoning: num(a, "llm.token_count.completion_details.reasoning"),
        outputAudio: num(a, "llm.token_count.completion_details.audio"),
      }),
    };
  },
};
