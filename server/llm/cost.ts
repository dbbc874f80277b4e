import table from "./prices.json";
import type { Usage } from "./usage";

/** Prices in USD per 1M tokens, by token type. */
export interface PriceEntry {
  model: string;
  /** Case-insensitive regular expression on the model name. */
  match: string;
  provider?: string | null;
  input: number | null;
  output: number | null;
  cache_read?: number | null;
  cache_write?: number | null;
  reasoning?: number | null;
  input_audio?: number | null;
  output_audio?: number | null;
  /** A workspace price applies to runs started at or after this instant (ISO-8601); absent: always. */
  start_date?: string | null;
}

export interface Cost {
  prompt_cost: number;
  completion_cost: number;
  total_cost: number;
  breakdown: Record<string, number>;
}

const compiled = new Map<string, RegExp | null>();
function regex(pattern: string): RegExp | null {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "i");
    } catch {
      re = null;
    }
    compiled.set(pattern, re);
  }
  return re;
}

const BUILT_IN = (table as { models: PriceEntry[] }).models;
const lookups = new Map<string, PriceEntry | null>();

/**
 * The first entry whose pattern matches the model (and provider, when the entry names one); custom
 * prices first (in the caller's order, skipping those whose start_date is after `at`), then the shipped table.
 */
export function findPrice(model: string, provider: string | null, custom: readonly PriceEntry[] = [], at?: Date): PriceEntry | null {
  const matches = (e: PriceEntry) =>
    regex(e.match)?.test(model) && (!e.provider || !provider || e.provider.toLowerCase() === provider.toLowerCase());
  const started = (e: PriceEntry) => !e.start_date || !at || Date.parse(e.start_date) <= at.getTime();
  const own = custom.find((e) => started(e) && matches(e));
  if (own) return own;
  const key = `${provider ?? ""}\u0000${model}`;
  let hit = lookups.get(key);
  if (hit === undefined) {
    hit = BUILT_IN.find(matches) ?? null;
    if (lookups.size > 5000) lookups.clear();
    lookups.set(key, hit);
  }
  return hit;
}

/**
 * Cost by token type: cache reads and writes, audio and reasoning each at their own price when the
 * model has one, else at the input (prompt side) or output (completion side) price; the rest of the
 * prompt at the input price and of the completion at the output price. Every type a call used has
 * its entry, so the SDKs' prompt_cost_details / completion_cost_details are complete.
 */
export function computeCost(usage: Usage, price: PriceEntry): Cost {
  const per = (tokens: number, perMillion: number | null | undefined, fallback: number | null) =>
    (tokens * (perMillion ?? fallback ?? 0)) / 1_000_000;
  const b: Record<string, number> = {};
  const cacheRead = usage.cache_read;
  const cacheWrite = usage.cache_creation;
  const audioIn = usage.input_audio;
  b.input = per(Math.max(0, usage.prompt_tokens - cacheRead - cacheWrite - audioIn), price.input, null);
  if (cacheRead) b.cache_read = per(cacheRead, price.cache_read, price.input);
  if (cacheWrite) b.cache_write = per(cacheWrite, price.cache_write, price.input);
  if (audioIn) b.input_audio = per(audioIn, price.input_audio, price.input);
  const reasoning = usage.reasoning;
  const audioOut = usage.output_audio;
  b.output = per(Math.max(0, usage.completion_tokens - reasoning - audioOut), price.output, null);
  if (reasoning) b.reasoning = per(reasoning, price.reasoning, price.output);
  if (audioOut) b.output_audio = per(audioOut, price.output_audio, price.output);
  const prompt = (b.input ?? 0) + (b.cache_read ?? 0) + (b.cache_write ?? 0) + (b.input_audio ?? 0);
  const completion = (b.output ?? 0) + (b.reasoning ?? 0) + (b.output_audio ?? 0);
  return { prompt_cost: prompt, completion_cost: completion, total_cost: prompt + completion, breakdown: b };
}
