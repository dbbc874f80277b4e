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

function mergeDrafts(first: Draft, second: Draft): Draft {
  const merged: Draft = { ...second };
  for (const [key, value] of Object.entries(first) as [keyof Draft, unknown][]) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  merged.metadata = { ...second.metadata, ...first.metadata };
  merged.invocationParams = { ...second.invocationParams, ...first.invocationParams };
  merged.usage = mergeUsage(first.usage, second.usage);
  merged.tags = [...new Set([...(first.tags ?? []), ...(second.tags ?? [])])];
  return merged;
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
