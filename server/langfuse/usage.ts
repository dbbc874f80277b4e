/**
 * Langfuse's usage and cost shapes → LangSmith `usage_metadata`, so ingest's one token rule applies
 * (server/llm/usage.ts: prompt tokens include cache reads and writes, completion tokens include
 * reasoning) and reported costs win over the price table.
 *
 * Langfuse's free-form maps (`usageDetails`, `costDetails`) are additive: every key is a separate
 * count and the total is their sum (`input_cached_tokens` is NOT part of `input`). So the input side
 * is the sum of the keys naming input or prompt, the output side of those naming output or
 * completion. The OpenAI shapes it also accepts already include cached/reasoning counts.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

interface Tokens {
  input: number | null;
  output: number | null;
  total: number | null;
  cacheRead: number;
  cacheCreation: number;
  reasoning: number;
  audioIn: number;
  audioOut: number;
}

const side = (key: string): "input" | "output" | null =>
  /input|prompt/i.test(key) ? "input" : /output|completion/i.test(key) ? "output" : null;

function sumSide(map: Obj, which: "input" | "output"): number | null {
  const values = Object.entries(map)
    .filter(([k]) => side(k) === which)
    .map(([, v]) => num(v))
    .filter((v): v is number => v !== null);
  return values.length ? values.reduce((a, b) => a + b, 0) : null;
}

const sumMatching = (map: Obj, pattern: RegExp) =>
  Object.entries(map).reduce((acc, [k, v]) => acc + (pattern.test(k) ? (num(v) ?? 0) : 0), 0);

function tokensOf(u: Obj): Tokens | null {
  const details = (key: string): Obj => (isObj(u[key]) ? (u[key] as Obj) : {});
  if (num(u.prompt_tokens) !== null || num(u.completion_tokens) !== null) {
    return {
      input: num(u.prompt_tokens),
      output: num(u.completion_tokens),
      total: num(u.total_tokens),
      cacheRead: num(details("prompt_tokens_details").cached_tokens) ?? 0,
      cacheCreation: 0,
      reasoning: num(details("completion_tokens_details").reasoning_tokens) ?? 0,
      audioIn: num(details("prompt_tokens_details").audio_tokens) ?? 0,
      audioOut: num(details("completion_tokens_details").audio_tokens) ?? 0,
    };
  }
  if (num(u.input_tokens) !== null || num(u.output_tokens) !== null) {
    return {
      input: num(u.input_tokens),
      output: num(u.output_tokens),
      total: num(u.total_tokens),
      cacheRead: num(details("input_tokens_details").cached_tokens) ?? 0,
      cacheCreation: 0,
      reasoning: num(details("output_tokens_details").reasoning_tokens) ?? 0,
      audioIn: 0,
      audioOut: 0,
    };
  }
  if (num(u.promptTokens) !== null || num(u.completionTokens) !== null) {
    return { ...zero, input: num(u.promptTokens), output: num(u.completionTokens), total: num(u.totalTokens) };
  }
  if (typeof u.unit === "string" && u.unit !== "TOKENS") return null;
  const counts = Object.fromEntries(Object.entries(u).filter(([k, v]) => num(v) !== null && !/cost/i.test(k)));
  const input = sumSide(counts, "input");
  const output = sumSide(counts, "output");
  if (input === null && output === null && num(counts.total) === null) return null;
  return {
    input,
    output,
    total: num(counts.total),
    cacheRead: sumMatching(counts, /cache_read|cached/i),
    cacheCreation: sumMatching(counts, /cache_creation|cache_write/i),
    reasoning: sumMatching(counts, /reasoning/i),
    audioIn: sumMatching(counts, /^input.*audio|audio.*input/i),
    audioOut: sumMatching(counts, /^output.*audio|audio.*output/i),
  };
}

const zero: Tokens = { input: null, output: null, total: null, cacheRead: 0, cacheCreation: 0, reasoning: 0, audioIn: 0, audioOut: 0 };

function costsOf(
  costDetails: Obj | null | undefined,
  usage: Obj | null | undefined,
): { input: number | null; output: number | null; total: number | null } | null {
  if (isObj(costDetails)) {
    const input = sumSide(costDetails, "input");
    const output = sumSide(costDetails, "output");
    const all = Object.values(costDetails)
      .map(num)
      .filter((v): v is number => v !== null);
    const total = num(costDetails.total) ?? (all.length ? all.reduce((a, b) => a + b, 0) : null);
    if (input !== null || output !== null || total !== null) return { input, output, total };
  }
  if (isObj(usage) && [usage.inputCost, usage.outputCost, usage.totalCost].some((c) => num(c) !== null)) {
    return { input: num(usage.inputCost), output: num(usage.outputCost), total: num(usage.totalCost) };
  }
  return null;
}

/** `usage_metadata` for a generation, or undefined when it reports neither tokens nor cost. */
export function usageMetadata(body: { usage?: Obj | null; usageDetails?: Obj | null; costDetails?: Obj | null }): Obj | undefined {
  const given = body.usageDetails ?? body.usage;
  const tokens = isObj(given) ? tokensOf(given) : null;
  const cost = costsOf(body.costDetails, body.usage);
  if (!tokens && !cost) return undefined;
  const out: Obj = {};
  if (tokens) {
    const input = tokens.input ?? 0;
    const output = tokens.output ?? 0;
    Object.assign(out, { input_tokens: input, output_tokens: output, total_tokens: Math.max(tokens.total ?? 0, input + output) });
    const inDetails = { cache_read: tokens.cacheRead, cache_creation: tokens.cacheCreation, audio: tokens.audioIn };
    const outDetails = { reasoning: tokens.reasoning, audio: tokens.audioOut };
    const nonZero = (o: Obj) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== 0));
    if (Object.keys(nonZero(inDetails)).length) out.input_token_details = nonZero(inDetails);
    if (Object.keys(nonZero(outDetails)).length) out.output_token_details = nonZero(outDetails);
  }
  if (cost) {
    if (cost.input !== null) out.input_cost = cost.input;
    if (cost.output !== null) out.output_cost = cost.output;
    if (cost.total !== null) out.total_cost = cost.total;
  }
  return out;
}
