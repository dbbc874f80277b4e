import { isRecord, num, parsed, str, withPrefix } from "../attrs";
import type { Attributes, OtlpSpan } from "../otlp";
import type { Adapter, Draft, RunType } from "./types";
import { usageFrom } from "./usage";

const SPAN_KINDS: Record<string, RunType> = { workflow: "chain", task: "chain", agent: "chain", session: "chain", tool: "tool" };
const REQUEST_TYPES: Record<string, RunType> = { chat: "llm", completion: "llm", embedding: "embedding", rerank: "retriever" };

/** `traceloop.entity.input/output` hold JSON (Python: `{"args": [...], "kwargs": {...}}`) or plain text. */
function entity(a: Attributes, key: "input" | "output"): Record<string, unknown> | undefined {
  const raw = a[`traceloop.entity.${key}`];
  if (raw === undefined || raw === null) return undefined;
  const v = parsed(raw);
  return isRecord(v) ? v : { [key]: v };
}

/**
 * OpenLLMetry / Traceloop: `traceloop.*` entity attributes and `llm.request.type`. Its LLM spans carry
 * the flattened `gen_ai.prompt.N.*` messages, which the GenAI adapter reads.
 */
export const traceloopAdapter: Adapter = {
  name: "traceloop",
  prefixes: ["traceloop.", "llm."],
  map(span: OtlpSpan): Draft {
    const a = span.attributes;
    const kind = str(a, "traceloop.span.kind")?.toLowerCase();
    const requestType = str(a, "llm.request.type") ?? str(a, "traceloop.llm.request.type");
    const runType = (kind && SPAN_KINDS[kind]) || (requestType ? (REQUEST_TYPES[requestType.toLowerCase()] ?? "llm") : undefined);
    const metadata: Record<string, unknown> = { ...withPrefix(a, "traceloop.association.properties.") };
    const streaming = a["llm.is_streaming"];
    return {
      runType,
      name: str(a, "traceloop.entity.name"),
      inputs: entity(a, "input"),
      outputs: entity(a, "output"),
      metadata,
      invocationParams: typeof streaming === "boolean" ? { stream: streaming } : {},
      usage: usageFrom({ total: num(a, "llm.usage.total_tokens") }),
    };
  },
};
