import { truncateStored } from "../db/storable";
import { computeCost, findPrice, type PriceEntry } from "./cost";
import { collectText } from "./text";
import { countTokens } from "./tokenizer";
import { extractUsage, type Usage } from "./usage";

export type { PriceEntry } from "./cost";

export interface LlmRunInput {
  run_type: string;
  inputs: unknown;
  outputs: unknown;
  extra: unknown;
  events: unknown;
  start_time: Date;
  end_time: Date | null;
}

export interface LlmDerived {
  model: string | null;
  provider: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  tokens_estimated: boolean;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
  usage_details: Record<string, unknown> | null;
  first_token_time: Date | null;
  diagnostics: { code: string; message: string; path?: string }[] | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/**
 * The longest model and provider names kept (as stored, db/storable): with the run's name they are
 * a key of the run_buckets rollup, whose index row must fit 2,704 bytes (see ingest/limits.ts).
 * They are read from what the run carries rather than sent as fields, so a longer one is cut, not
 * refused; the run's inputs and metadata keep the whole text.
 */
export const MAX_MODEL_NAME = 200;
export const MAX_PROVIDER_NAME = 100;

const bounded = (text: string | null, limit: number) => (text === null ? null : truncateStored(text, limit));

/** The model, in the contract's order: metadata.ls_model_name, inputs.model, inputs.model_name; then invocation params. */
export function modelName(inputs: unknown, extra: unknown, outputs?: unknown): string | null {
  const meta = isObj(extra) && isObj(extra.metadata) ? extra.metadata : {};
  const params = isObj(extra) && isObj(extra.invocation_params) ? extra.invocation_params : {};
  const i = isObj(inputs) ? inputs : {};
  const o = isObj(outputs) ? outputs : {};
  const found = str(meta.ls_model_name) ?? str(i.model) ?? str(i.model_name) ?? str(params.model) ?? str(params.model_name) ?? str(o.model);
  return bounded(found, MAX_MODEL_NAME);
}

function providerName(extra: unknown): string | null {
  const meta = isObj(extra) && isObj(extra.metadata) ? extra.metadata : {};
  return bounded(str(meta.ls_provider), MAX_PROVIDER_NAME);
}

/** The time of the first `new_token` event: what time-to-first-token is measured to. */
function firstTokenTime(events: unknown): Date | null {
  if (!Array.isArray(events)) return null;
  for (const e of events) {
    if (isObj(e) && e.name === "new_token" && (typeof e.time === "string" || typeof e.time === "number")) {
      const t = new Date(typeof e.time === "string" && !/[zZ]|[+-]\d\d:?\d\d$/.test(e.time) ? `${e.time}Z` : e.time);
      if (!Number.isNaN(t.getTime())) return t;
    }
  }
  return null;
}

function estimate(run: LlmRunInput, model: string | null): Usage {
  const prompt = countTokens(collectText(run.inputs).join("\n"), model);
  const completion = run.outputs == null ? 0 : countTokens(collectText(run.outputs).join("\n"), model);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cache_read: 0,
    cache_creation: 0,
    reasoning: 0,
    input_audio: 0,
    output_audio: 0,
  };
}

const round = (n: number) => Math.round(n * 1e10) / 1e10;

/**
 * Everything ingest derives from a run: model and provider, tokens (reported, or estimated for LLM
 * runs and flagged), cost by token type (reported costs win over the price table), first-token time.
 */
export function deriveLlm(run: LlmRunInput, customPrices?: readonly PriceEntry[]): LlmDerived {
  const first_token_time = firstTokenTime(run.events);
  const reported = extractUsage(run.outputs, run.extra);
  const isLlm = run.run_type === "llm";
  if (!isLlm && !reported) {
    return {
      model: null,
      provider: null,
      prompt_tokens: null,
      completion_tokens: null,
      total_tokens: null,
      tokens_estimated: false,
      prompt_cost: null,
      completion_cost: null,
      total_cost: null,
      usage_details: null,
      first_token_time,
      diagnostics: null,
    };
  }
  const model = modelName(run.inputs, run.extra, run.outputs);
  const provider = providerName(run.extra);
  const usage = reported ?? estimate(run, model);
  const price = model ? findPrice(model, provider, customPrices, run.start_time) : null;
  let cost: { prompt: number | null; completion: number | null; total: number | null; breakdown?: Record<string, number> } = {
    prompt: null,
    completion: null,
    total: null,
  };
  if (usage.reported_cost) {
    const c = usage.reported_cost;
    cost = {
      prompt: c.prompt,
      completion: c.completion,
      total: c.total ?? (c.prompt !== null || c.completion !== null ? (c.prompt ?? 0) + (c.completion ?? 0) : null),
    };
  } else if (price) {
    const c = computeCost(usage, price);
    cost = { prompt: round(c.prompt_cost), completion: round(c.completion_cost), total: round(c.total_cost), breakdown: c.breakdown };
  }
  return {
    model,
    provider,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    tokens_estimated: !reported,
    prompt_cost: cost.prompt,
    completion_cost: cost.completion,
    total_cost: cost.total,
    usage_details: {
      cache_read: usage.cache_read,
      cache_creation: usage.cache_creation,
      reasoning: usage.reasoning,
      input_audio: usage.input_audio,
      output_audio: usage.output_audio,
      ...(price ? { price_model: price.model } : {}),
      ...(cost.breakdown ? { cost: cost.breakdown } : {}),
      ...(usage.reported_cost ? { cost_reported: true } : {}),
      ...usage.reported_details,
    },
    first_token_time,
    diagnostics: null,
  };
}
