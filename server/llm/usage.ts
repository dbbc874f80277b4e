import { badRequest } from "../core/errors";

/**
 * Token usage from every shape providers and SDKs report, normalised to ONE rule:
 *   prompt_tokens     include cache reads and cache writes (Anthropic reports them apart; we add them);
 *   completion_tokens include reasoning tokens;
 *   total_tokens      = prompt_tokens + completion_tokens.
 * The breakdown (cache_read, cache_creation, reasoning, audio) is kept beside the totals.
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cache_read: number;
  cache_creation: number;
  reasoning: number;
  input_audio: number;
  output_audio: number;
  /** Costs the caller reported itself (usage_metadata.input_cost …); they win over our price table. */
  reported_cost?: { prompt: number | null; completion: number | null; total: number | null };
  /** usage_metadata's own breakdowns, every key as sent, under the names the SDKs read them back by. */
  reported_details?: ReportedDetails;
}

export interface ReportedDetails {
  prompt_token_details?: Record<string, number>;
  completion_token_details?: Record<string, number>;
  prompt_cost_details?: Record<string, number>;
  completion_cost_details?: Record<string, number>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const n0 = (v: unknown) => num(v) ?? 0;

function finish(u: Omit<Usage, "total_tokens">, total?: number | null): Usage {
  const sum = u.prompt_tokens + u.completion_tokens;
  return { ...u, total_tokens: total && total > sum ? total : sum };
}

/** A breakdown map's numeric entries, every key kept (`foo` too); undefined when it has none. */
function numericEntries(v: unknown): Record<string, number> | undefined {
  if (!isObj(v)) return undefined;
  const kept = Object.entries(v).filter((e): e is [string, number] => num(e[1]) !== null);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function reportedDetails(u: Obj): ReportedDetails | undefined {
  const details: ReportedDetails = {
    prompt_token_details: numericEntries(u.input_token_details),
    completion_token_details: numericEntries(u.output_token_details),
    prompt_cost_details: numericEntries(u.input_cost_details),
    completion_cost_details: numericEntries(u.output_cost_details),
  };
  const given = Object.entries(details).filter(([, v]) => v !== undefined);
  return given.length ? Object.fromEntries(given) : undefined;
}

/** LangChain / LangSmith `usage_metadata` (input_tokens already include cache; output include reasoning). */
function fromUsageMetadata(u: Obj): Usage | null {
  if (num(u.input_tokens) === null && num(u.output_tokens) === null && num(u.total_tokens) === null) return null;
  const inDetails = isObj(u.input_token_details) ? u.input_token_details : {};
  const outDetails = isObj(u.output_token_details) ? u.output_token_details : {};
  const cost = [u.input_cost, u.output_cost, u.total_cost].some((c) => num(c) !== null)
    ? { prompt: num(u.input_cost), completion: num(u.output_cost), total: num(u.total_cost) }
    : undefined;
  const details = reportedDetails(u);
  return finish(
    {
      prompt_tokens: n0(u.input_tokens),
      completion_tokens: n0(u.output_tokens),
      cache_read: n0(inDetails.cache_read),
      cache_creation: n0(inDetails.cache_creation),
      reasoning: n0(outDetails.reasoning),
      input_audio: n0(inDetails.audio),
      output_audio: n0(outDetails.audio),
      ...(cost ? { reported_cost: cost } : {}),
      ...(details ? { reported_details: details } : {}),
    },
    num(u.total_tokens),
  );
}

/** OpenAI chat completions (prompt_tokens include cached) and Responses (input_tokens include cached). */
function fromOpenAi(u: Obj): Usage | null {
  const prompt =
    num(u.prompt_tokens) ??
    (num(u.cache_creation_input_tokens) === null && num(u.cache_read_input_tokens) === null ? num(u.input_tokens) : null);
  const completion = num(u.completion_tokens) ?? (prompt !== null ? num(u.output_tokens) : null);
  if (prompt === null && completion === null) return null;
  const inDetails = (
    isObj(u.prompt_tokens_details) ? u.prompt_tokens_details : isObj(u.input_tokens_details) ? u.input_tokens_details : {}
  ) as Obj;
  const outDetails = (
    isObj(u.completion_tokens_details) ? u.completion_tokens_details : isObj(u.output_tokens_details) ? u.output_tokens_details : {}
  ) as Obj;
  return finish(
    {
      prompt_tokens: prompt ?? 0,
      completion_tokens: completion ?? 0,
      cache_read: n0(inDetails.cached_tokens),
      cache_creation: 0,
      reasoning: n0(outDetails.reasoning_tokens),
      input_audio: n0(inDetails.audio_tokens),
      output_audio: n0(outDetails.audio_tokens),
    },
    num(u.total_tokens),
  );
}

/** Anthropic: input_tokens EXCLUDE cache reads and writes, so they are added. */
function fromAnthropic(u: Obj): Usage | null {
  if (num(u.cache_read_input_tokens) === null && num(u.cache_creation_input_tokens) === null) return null;
  const read = n0(u.cache_read_input_tokens);
  const write = n0(u.cache_creation_input_tokens);
  return finish({
    prompt_tokens: n0(u.input_tokens) + read + write,
    completion_tokens: n0(u.output_tokens),
    cache_read: read,
    cache_creation: write,
    reasoning: 0,
    input_audio: 0,
    output_audio: 0,
  });
}

/** Gemini usageMetadata: candidates exclude thoughts, so thoughts are added to completion. */
function fromGemini(u: Obj): Usage | null {
  if (num(u.promptTokenCount) === null && num(u.prompt_token_count) === null) return null;
  const thoughts = n0(u.thoughtsTokenCount ?? u.thoughts_token_count);
  return finish(
    {
      prompt_tokens: n0(u.promptTokenCount ?? u.prompt_token_count),
      completion_tokens: n0(u.candidatesTokenCount ?? u.candidates_token_count) + thoughts,
      cache_read: n0(u.cachedContentTokenCount ?? u.cached_content_token_count),
      cache_creation: 0,
      reasoning: thoughts,
      input_audio: 0,
      output_audio: 0,
    },
    num(u.totalTokenCount ?? u.total_token_count),
  );
}

function fromAny(u: unknown): Usage | null {
  if (!isObj(u)) return null;
  return fromAnthropic(u) ?? fromGemini(u) ?? fromOpenAi(u) ?? fromUsageMetadata(u);
}

function lastMessageUsage(outputs: Obj): unknown {
  for (const key of ["messages", "generations"]) {
    const list = outputs[key];
    const flat = Array.isArray(list) ? list.flat(2) : [];
    for (let i = flat.length - 1; i >= 0; i--) {
      const m = flat[i] as Obj;
      const candidate =
        m?.usage_metadata ??
        (m?.message as Obj)?.usage_metadata ??
        ((m?.message as Obj)?.kwargs as Obj)?.usage_metadata ??
        (m?.kwargs as Obj)?.usage_metadata;
      if (candidate) return candidate;
    }
  }
  return undefined;
}

const COUNTS = [
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "cache_read",
  "cache_creation",
  "reasoning",
  "input_audio",
  "output_audio",
] as const;
const MAX_COUNT = 2 ** 31 - 1;

/** Token counts are whole numbers from 0 to 2^31 - 1; a run reporting others is refused, saying which. */
function checkedCounts(usage: Usage): Usage {
  for (const name of COUNTS) {
    const n = usage[name];
    if (!Number.isInteger(n) || n < 0 || n > MAX_COUNT) {
      throw badRequest(`Token counts must be whole numbers from 0 to ${MAX_COUNT.toLocaleString("en")}; ${name} is ${n}.`);
    }
  }
  return usage;
}

/** Finds usage where clients put it: outputs, the last output message, llm_output, or metadata. */
export function extractUsage(outputs: unknown, extra: unknown): Usage | null {
  const o = isObj(outputs) ? outputs : {};
  const meta = isObj(extra) && isObj(extra.metadata) ? extra.metadata : {};
  const candidates = [
    o.usage_metadata,
    o.usage,
    o.usageMetadata,
    lastMessageUsage(o),
    isObj(o.llm_output) ? (o.llm_output.token_usage ?? o.llm_output.usage) : undefined,
    isObj(o.response_metadata) ? o.response_metadata.usage : undefined,
    meta.usage_metadata,
  ];
  for (const c of candidates) {
    if (!isObj(c)) continue;
    const isUsageMetadata = "input_tokens" in c && !("cache_read_input_tokens" in c) && !("input_tokens_details" in c);
    const usage = isUsageMetadata ? fromUsageMetadata(c) : fromAny(c);
    if (usage) return checkedCounts(usage);
  }
  return null;
}
