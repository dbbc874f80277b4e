import type { UsageMetadata } from "./types";

export interface TokenCounts {
  input?: number;
  output?: number;
  total?: number;
  cacheRead?: number;
  cacheCreation?: number;
  reasoning?: number;
  inputAudio?: number;
  outputAudio?: number;
}

function details(entries: [string, number | undefined][]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

/**
 * Counts → usage_metadata. Input and output counts already include their cached and reasoning
 * parts in every convention read here (semconv says so; OpenInference and the AI SDK follow
 * OpenAI), so the details only break them down.
 */
export function usageFrom(c: TokenCounts): UsageMetadata | undefined {
  const input = details([
    ["cache_read", c.cacheRead],
    ["cache_creation", c.cacheCreation],
    ["audio", c.inputAudio],
  ]);
  const output = details([
    ["reasoning", c.reasoning],
    ["audio", c.outputAudio],
  ]);
  if (c.input === undefined && c.output === undefined && c.total === undefined && !input && !output) return undefined;
  const usage: UsageMetadata = {};
  if (c.input !== undefined) usage.input_tokens = c.input;
  if (c.output !== undefined) usage.output_tokens = c.output;
  if (c.total !== undefined) usage.total_tokens = c.total;
  if (input) usage.input_token_details = input;
  if (output) usage.output_token_details = output;
  return usage;
}

/** Earlier values win, detail by detail; totals are completed once everything is merged. */
export function mergeUsage(first: UsageMetadata | undefined, second: UsageMetadata | undefined): UsageMetadata | undefined {
  if (!first || !second) return first ?? second;
  const merged: UsageMetadata = { ...second, ...first };
  for (const key of ["input_token_details", "output_token_details"] as const) {
    if (first[key] || second[key]) merged[key] = { ...second[key], ...first[key] };
  }
  return merged;
}

export function completeUsage(usage: UsageMetadata): UsageMetadata {
  if (usage.total_tokens === undefined && (usage.input_tokens !== undefined || usage.output_tokens !== undefined)) {
    return { ...usage, total_tokens: (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) };
  }
  return usage;
}
