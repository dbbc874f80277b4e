import type { OtlpSpan } from "../otlp";
import { genaiAdapter } from "./genai";
import { langfuseAdapter } from "./langfuse";
import { langsmithAdapter } from "./langsmith";
import { openinferenceAdapter } from "./openinference";
import { traceloopAdapter } from "./traceloop";
import type { Adapter, Draft } from "./types";
import { mergeUsage } from "./usage";
import { vercelAdapter } from "./vercel";

/**
 * The adapters in the order they are tried (see ../README.md): explicit LangSmith and Langfuse
 * attributes first, then the conventions that say most about a span, the generic GenAI conventions last.
 */
export const ADAPTERS: Adapter[] = [langsmithAdapter, langfuseAdapter, vercelAdapter, openinferenceAdapter, traceloopAdapter, genaiAdapter];

/** The first's value unless it has none. */
const either = <T>(first: T | undefined, second: T | undefined): T | undefined => (first !== undefined ? first : second);

/**
 * The earlier reading wins field by field. Written out field by field: copying with dynamic keys
 * turned every draft into a dictionary-mode object, the slowest step of mapping a large export.
 */
function mergeDrafts(first: Draft, second: Draft): Draft {
  return {
    name: either(first.name, second.name),
    runType: either(first.runType, second.runType),
    inputs: either(first.inputs, second.inputs),
    outputs: either(first.outputs, second.outputs),
    metadata: { ...second.metadata, ...first.metadata },
    invocationParams: { ...second.invocationParams, ...first.invocationParams },
    usage: mergeUsage(first.usage, second.usage),
    tags: [...new Set([...(first.tags ?? []), ...(second.tags ?? [])])],
    provider: either(first.provider, second.provider),
    model: either(first.model, second.model),
    runId: either(first.runId, second.runId),
    traceId: either(first.traceId, second.traceId),
    parentRunId: either(first.parentRunId, second.parentRunId),
    dottedOrder: either(first.dottedOrder, second.dottedOrder),
    sessionName: either(first.sessionName, second.sessionName),
    sessionId: either(first.sessionId, second.sessionId),
    referenceExampleId: either(first.referenceExampleId, second.referenceExampleId),
    instant: either(first.instant, second.instant),
    error: either(first.error, second.error),
    firstTokenAfterNanos: either(first.firstTokenAfterNanos, second.firstTokenAfterNanos),
  } satisfies Required<Record<keyof Draft, unknown>>;
}

export interface SpanReading {
  draft: Draft;
  /** Whether a convention that read the span owns the attribute; the others are kept as metadata, as LangSmith keeps them. */
  owns(key: string): boolean;
}

/** Every matching adapter's reading of the span, earlier adapters winning field by field. */
export function readSpan(span: OtlpSpan): SpanReading {
  let draft: Draft = {};
  const prefixes: string[] = [];
  for (const adapter of ADAPTERS) {
    const reading = adapter.map(span);
    if (!reading) continue;
    draft = mergeDrafts(draft, reading);
    prefixes.push(...adapter.prefixes);
  }
  return { draft, owns: (key) => prefixes.some((prefix) => key.startsWith(prefix)) };
}
