import { test } from "node:test";
import assert from "node:assert/strict";
import { deriveLlm, modelName, type LlmRunInput } from "./derive";
import { extractUsage } from "./usage";

const run = (over: Partial<LlmRunInput>): LlmRunInput => ({
  run_type: "llm",
  inputs: {},
  outputs: {},
  extra: {},
  events: [],
  start_time: new Date("2024-05-01T12:00:00Z"),
  end_time: null,
  ...over,
});

test("one rule for every usage shape: prompt includes cache, completion includes reasoning", () => {
  const openai = extractUsage(
    {
      usage: {
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 20 },
      },
    },
    {},
  );
  assert.deepEqual([openai?.prompt_tokens, openai?.completion_tokens, openai?.cache_read, openai?.reasoning], [100, 50, 40, 20]);
  const anthropic = extractUsage(
    { usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 80, cache_creation_input_tokens: 10 } },
    {},
  );
  assert.deepEqual(
    [anthropic?.prompt_tokens, anthropic?.total_tokens, anthropic?.cache_read, anthropic?.cache_creation],
    [100, 105, 80, 10],
  );
  const gemini = extractUsage(
    { usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10, thoughtsTokenCount: 5, cachedContentTokenCount: 8 } },
    {},
  );
  assert.deepEqual([gemini?.prompt_tokens, gemini?.completion_tokens, gemini?.reasoning, gemini?.cache_read], [30, 15, 5, 8]);
  const lc = extractUsage(
    {
      generations: [
        [
          {
            message: {
              kwargs: { usage_metadata: { input_tokens: 7, output_tokens: 3, total_tokens: 10, input_token_details: { cache_read: 2 } } },
            },
          },
        ],
      ],
    },
    {},
  );
  assert.deepEqual([lc?.prompt_tokens, lc?.completion_tokens, lc?.cache_read], [7, 3, 2]);
  const responses = extractUsage(
    {
      usage: {
        input_tokens: 50,
        output_tokens: 9,
        input_tokens_details: { cached_tokens: 10 },
        output_tokens_details: { reasoning_tokens: 4 },
      },
    },
    {},
  );
  assert.deepEqual([responses?.prompt_tokens, responses?.cache_read, responses?.reasoning], [50, 10, 4]);
});

test("the model name comes from ls_model_name, then inputs.model, then inputs.model_name", () => {
  assert.equal(modelName({ model: "b", model_name: "c" }, { metadata: { ls_model_name: "a" } }), "a");
  assert.equal(modelName({ model: "b", model_name: "c" }, {}), "b");
  assert.equal(modelName({ model_name: "c" }, {}), "c");
  assert.equal(modelName({}, {}), null);
});

test("cost by token type from the price table, cache reads at their own price", () => {
  const d = deriveLlm(
    run({
      extra: { metadata: { ls_model_name: "gpt-4o", ls_provider: "openai" } },
      outputs: { usage: { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, prompt_tokens_details: { cached_tokens: 500_000 } } },
    }),
  );
  assert.equal(d.prompt_cost, 0.5 * 2.5 + 0.5 * 1.25);
  assert.equal(d.completion_cost, 10);
  assert.equal(d.total_cost, 11.875);
  assert.equal(d.tokens_estimated, false);
});

test("reported costs win, custom prices win over the table", () => {
  const reported = deriveLlm(
    run({
      inputs: { model: "gpt-4o" },
      outputs: { usage_metadata: { input_tokens: 10, output_tokens: 10, total_tokens: 20, input_cost: 0.5, output_cost: 0.25 } },
    }),
  );
  assert.equal(reported.total_cost, 0.75);
  const custom = deriveLlm(
    run({
      inputs: { model: "my-model" },
      outputs: { usage_metadata: { input_tokens: 1_000_000, output_tokens: 0, total_tokens: 1_000_000 } },
    }),
    [{ model: "mine", match: "^my-", input: 3, output: 6 }],
  );
  assert.equal(custom.total_cost, 3);
});

test("missing counts are estimated with the tokenizer and flagged; first token from new_token", () => {
  const d = deriveLlm(
    run({
      inputs: { messages: [{ role: "user", content: "Hello there, how are you today?" }], model: "gpt-4o-mini" },
      outputs: { choices: [{ message: { role: "assistant", content: "Fine, thanks." } }] },
      events: [{ name: "new_token", time: "2024-05-01T12:00:00.250Z" }],
    }),
  );
  assert.equal(d.tokens_estimated, true);
  assert.ok(d.prompt_tokens! >= 7 && d.prompt_tokens! <= 12, String(d.prompt_tokens));
  assert.ok(d.completion_tokens! >= 3 && d.completion_tokens! <= 6);
  assert.equal(d.first_token_time?.toISOString(), "2024-05-01T12:00:00.250Z");
});

test("a chain run without usage has no tokens; unknown shapes never throw", () => {
  const d = deriveLlm(run({ run_type: "chain", outputs: { anything: [1, 2, 3] } }));
  assert.equal(d.total_tokens, null);
  assert.doesNotThrow(() => deriveLlm(run({ inputs: "just text", outputs: [null, 5, { weird: true }] })));
});

test("usage_metadata's token and cost details are kept as sent, unknown keys too, under the SDKs' names", () => {
  const derived = deriveLlm(
    run({
      outputs: {
        usage_metadata: {
          input_tokens: 10,
          output_tokens: 20,
          total_tokens: 30,
          input_cost: 1e-6,
          input_token_details: { audio: 1, foo: 2, cache_read: 0, note: "not a number" },
          output_token_details: { reasoning: 3, foo: 4 },
          input_cost_details: { audio: 1e-7, foo: 2e-7 },
        },
      },
    }),
  );
  assert.deepEqual(derived.usage_details?.prompt_token_details, { audio: 1, foo: 2, cache_read: 0 });
  assert.deepEqual(derived.usage_details?.completion_token_details, { reasoning: 3, foo: 4 });
  assert.deepEqual(derived.usage_details?.prompt_cost_details, { audio: 1e-7, foo: 2e-7 });
  assert.equal(derived.usage_details?.completion_cost_details, undefined, "not sent, so derived from the price table when read");
  assert.equal(derived.usage_details?.input_audio, 1);
});
