/**
 * How a Langfuse observation's kind and content become a run's type, inputs and outputs. Shared by
 * the ingestion API (to-runs.ts) and the OTel export's `langfuse.*` attributes (server/otel/map/langfuse.ts),
 * so both paths give the same run.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Observation kinds → run types (agent, chain, evaluator, guardrail and event observations are chains). */
export const OBSERVATION_RUN_TYPES = {
  span: "chain",
  agent: "chain",
  chain: "chain",
  evaluator: "chain",
  guardrail: "chain",
  event: "chain",
  generation: "llm",
  tool: "tool",
  retriever: "retriever",
  embedding: "embedding",
} as const satisfies Record<string, string>;
export type ObservationKind = keyof typeof OBSERVATION_RUN_TYPES;

export function isObservationKind(kind: string): kind is ObservationKind {
  return Object.hasOwn(OBSERVATION_RUN_TYPES, kind);
}

/** A value as a run's inputs or outputs, which are objects: anything else is wrapped under `key`. */
export function asObject(value: unknown, key: string): Obj | undefined {
  if (value === undefined || value === null) return undefined;
  return isObj(value) ? value : { [key]: value };
}

/** Generation input: a message list is the chat's `messages`, so the conversation adapters read it. */
export function llmInputs(value: unknown): Obj | undefined {
  return Array.isArray(value) ? { messages: value } : asObject(value, "input");
}

/** Generation output: a completion text or one message becomes the assistant's choice. */
export function llmOutputs(value: unknown): Obj | undefined {
  if (typeof value === "string") return { choices: [{ index: 0, message: { role: "assistant", content: value } }] };
  if (isObj(value) && typeof value.role === "string" && "content" in value) return { choices: [{ index: 0, message: value }] };
  return asObject(value, "output");
}
