import { z } from "zod";

/** Token types a price can name, in USD per 1M tokens (the shipped table's keys). */
export const TOKEN_TYPES = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"] as const;

export const MAX_PATTERN_LENGTH = 300;

/** Langfuse-style patterns start with PCRE's `(?i)`; JS has no inline flags and matching is case-insensitive anyway. */
export const normalizePattern = (pattern: string) => pattern.replace(/^\(\?i\)/, "");

/**
 * Why a pattern is refused, or null. Beyond compiling, it must not be able to backtrack
 * catastrophically on a model name: no back-references, no lookbehind, and no quantified group
 * that itself contains a quantifier (`(a+)+`, `(\w*)*`, `(a|a?)+`) — the shapes behind ReDoS.
 */
export function patternProblem(pattern: string): string | null {
  const p = normalizePattern(pattern);
  if (p.length === 0) return "must not be empty";
  if (p.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(p, "i");
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
  if (/\\[1-9]|\\k</.test(p)) return "must not use back-references";
  if (/\(\?<[=!]/.test(p)) return "must not use lookbehind";
  // A group (innermost parentheses) containing a quantifier, itself followed by a quantifier.
  if (/\((?:[^()\\]|\\.)*(?:[*+?]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[*+]|\{\d+,\d*\})/.test(p)) {
    return "must not repeat a group that itself contains a repetition (nested quantifiers can take exponential time)";
  }
  return null;
}

const perMillion = z.number().finite().nonnegative("must not be negative").max(1_000_000, "must be at most 1000000 USD per 1M tokens");

export const priceMap = z
  .strictObject({
    input: perMillion.nullish(),
    output: perMillion.nullish(),
    cache_read: perMillion.nullish(),
    cache_write: perMillion.nullish(),
    reasoning: perMillion.nullish(),
    input_audio: perMillion.nullish(),
    output_audio: perMillion.nullish(),
  })
  .refine((p) => p.input != null || p.output != null, { message: "must give at least an input or an output price" });

const pattern = z
  .string()
  .superRefine((value, ctx) => {
    const problem = patternProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform(normalizePattern);

const startDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\d/.test(v), "must be an ISO-8601 date or time");

/** POST /model-prices */
export const modelPriceCreate = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200),
  match_pattern: pattern,
  provider: z.string().trim().min(1).max(100).nullish(),
  start_date: startDate.nullish(),
  prices: priceMap,
});
export type ModelPriceCreate = z.infer<typeof modelPriceCreate>;

/** PATCH /model-prices/{id}: any subset; `prices` replaces the whole map. */
export const modelPriceUpdate = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200).optional(),
  match_pattern: pattern.optional(),
  provider: z.string().trim().min(1).max(100).nullable().optional(),
  start_date: startDate.nullable().optional(),
  prices: priceMap.optional(),
});
export type ModelPriceUpdate = z.infer<typeof modelPriceUpdate>;

export const modelPriceListQuery = z.looseObject({
  source: z.enum(["all", "workspace", "shipped"]).default("all"),
});
export type ModelPriceListQuery = z.infer<typeof modelPriceListQuery>;
