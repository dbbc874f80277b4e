import { test } from "node:test";
import assert from "node:assert/strict";
import { extractUsage } from "../llm/usage";
import { usageMetadata } from "./usage";

/** What ingest's token rule makes of the mapped usage: the numbers a reader sees. */
const counted = (body: Parameters<typeof usageMetadata>[0]) => {
  const u = extractUsage({}, { metadata: { usage_metadata: usageMetadata(body) } });
  return (
    u && {
      prompt: u.prompt_tokens,
      completion: u.completion_tokens,
      total: u.total_tokens,
      cacheRead: u.cache_read,
      reasoning: u.reasoning,
      cost: u.reported_cost,
    }
  );
};

test("Langfuse's additive usageDetails: cached and cache-write input join the prompt side, reasoning the completion side", () => {
  assert.deepEqual(
    counted({
      usageDetails: { input: 100, input_cached_tokens: 40, input_cache_creation: 10, output: 20, output_reasoning_tokens: 5, total: 175 },
    }),
    { prompt: 150, completion: 25, total: 175, cacheRead: 40, reasoning: 5, cost: undefined },
  );
});

test("OpenAI Completions and Responses usage already include cached and reasoning tokens", () => {
  assert.deepEqual(
    counted({
      usageDetails: {
        prompt_tokens: 100,
        completion_tokens: 30,
        total_tokens: 130,
        prompt_tokens_details: { cached_tokens: 60 },
        completion_tokens_details: { reasoning_tokens: 10 },
      },
    }),
    { prompt: 100, completion: 30, total: 130, cacheRead: 60, reasoning: 10, cost: undefined },
  );
  assert.deepEqual(
    counted({ usageDetails: { input_tokens: 7, output_tokens: 3, total_tokens: 10, input_tokens_details: { cached_tokens: 2 } } }),
    { prompt: 7, completion: 3, total: 10, cacheRead: 2, reasoning: 0, cost: undefined },
  );
});

test("the legacy usage object and costDetails: reported costs by side, total summed when not given", () => {
  assert.deepEqual(counted({ usage: { input: 10, output: 4, unit: "TOKENS", inputCost: 0.1, outputCost: 0.2, totalCost: 0.3 } }), {
    prompt: 10,
    completion: 4,
    total: 14,
    cacheRead: 0,
    reasoning: 0,
    cost: { prompt: 0.1, completion: 0.2, total: 0.3 },
  });
  assert.deepEqual(
    counted({ usageDetails: { input: 1, output: 1 }, costDetails: { input: 0.5, input_cached_tokens: 0.25, output: 1 } })?.cost,
    {
      prompt: 0.75,
      completion: 1,
      total: 1.75,
    },
  );
  assert.equal(usageMetadata({ usage: { input: 3, unit: "CHARACTERS" } }), undefined, "only tokens are token counts");
  assert.equal(usageMetadata({}), undefined);
});
