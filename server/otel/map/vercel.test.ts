import { test } from "node:test";
import assert from "node:assert/strict";
import { runOf, span } from "../test-spans";

const doGenerate = {
  "operation.name": "ai.generateText.doGenerate weather-agent",
  "ai.operationId": "ai.generateText.doGenerate",
  "ai.model.id": "gpt-4o-mini",
  "ai.model.provider": "openai.chat",
  "ai.settings.maxRetries": 2,
  "ai.settings.temperature": 0.3,
  "ai.prompt.tools": [JSON.stringify({ type: "function", name: "weather", inputSchema: { type: "object" } })],
  "ai.telemetry.functionId": "weather-agent",
  "ai.telemetry.metadata.userId": "u-1",
  "ai.telemetry.metadata.ls_project_name": "vercel-project",
  "ai.prompt.messages": JSON.stringify([
    { role: "system", content: "You answer weather questions." },
    { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" } }] },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "weather", output: { type: "json", value: { temp: -3 } } }],
    },
  ]),
  "ai.response.text": "It is -3°C in Oslo.",
  "ai.response.finishReason": "stop",
  "ai.response.id": "resp_1",
  "ai.usage.inputTokens": 80,
  "ai.usage.outputTokens": 12,
  "ai.usage.totalTokens": 92,
  "ai.usage.cachedInputTokens": 64,
  "ai.usage.reasoningTokens": 0,
  "gen_ai.system": "openai.chat",
  "gen_ai.request.model": "gpt-4o-mini",
  "gen_ai.usage.input_tokens": 80,
  "gen_ai.usage.output_tokens": 12,
};

test("AI SDK doGenerate span: llm run with OpenAI messages, tool round trip, usage with cache, project from telemetry metadata", () => {
  const run = runOf(span(doGenerate, { name: "ai.generateText.doGenerate" }));
  assert.equal(run.run_type, "llm");
  assert.equal(run.name, "ai.generateText.doGenerate");
  assert.equal(run.session_name, "vercel-project");
  assert.deepEqual(run.inputs.messages, [
    { role: "system", content: "You answer weather questions." },
    { role: "user", content: "Weather in Oslo?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
    },
    { role: "tool", tool_call_id: "c1", content: '{"temp":-3}' },
  ]);
  assert.deepEqual(run.outputs?.choices, [
    { index: 0, message: { role: "assistant", content: "It is -3°C in Oslo." }, finish_reason: "stop" },
  ]);
  assert.deepEqual(run.outputs?.usage_metadata, {
    input_tokens: 80,
    output_tokens: 12,
    total_tokens: 92,
    input_token_details: { cache_read: 64 },
    output_token_details: { reasoning: 0 },
  });
  assert.equal(run.extra.metadata.ls_provider, "openai");
  assert.equal(run.extra.metadata.ls_model_name, "gpt-4o-mini");
  assert.equal(run.extra.metadata.userId, "u-1");
  assert.equal(run.extra.metadata.ls_project_name, undefined);
  assert.deepEqual(run.extra.invocation_params, {
    model: "gpt-4o-mini",
    temperature: 0.3,
    tools: [{ type: "function", name: "weather", inputSchema: { type: "object" } }],
  });
});

test("the Langsmith-Project header wins over the project in the spans", () => {
  assert.equal(runOf(span(doGenerate), "from-header").session_name, "from-header");
});

test("AI SDK tool calls in the response, and v4 attribute names (promptTokens, args, result)", () => {
  const run = runOf(
    span({
      "ai.operationId": "ai.generateText.doGenerate",
      "ai.model.id": "claude-3-5-haiku-latest",
      "ai.model.provider": "anthropic.messages",
      "ai.prompt.messages": JSON.stringify([{ role: "user", content: [{ type: "text", text: "Weather?" }] }]),
      "ai.response.toolCalls": JSON.stringify([
        { toolCallType: "function", toolCallId: "t1", toolName: "weather", args: '{"city":"Rome"}' },
      ]),
      "ai.response.finishReason": "tool-calls",
      "ai.usage.promptTokens": 30,
      "ai.usage.completionTokens": 9,
      "ai.response.providerMetadata": JSON.stringify({ anthropic: { cacheCreationInputTokens: 25 } }),
    }),
  );
  assert.deepEqual(run.outputs?.choices, [
    {
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } }],
      },
      finish_reason: "tool-calls",
    },
  ]);
  assert.deepEqual(run.outputs?.usage_metadata, {
    input_tokens: 30,
    output_tokens: 9,
    total_tokens: 39,
    input_token_details: { cache_creation: 25 },
  });
  assert.equal(run.extra.metadata.ls_provider, "anthropic");

  const tool = runOf(
    span(
      {
        "ai.operationId": "ai.toolCall",
        "ai.toolCall.name": "weather",
        "ai.toolCall.id": "t1",
        "ai.toolCall.args": '{"city":"Rome"}',
        "ai.toolCall.result": '{"temp":21}',
      },
      { name: "ai.toolCall" },
    ),
  );
  assert.equal(tool.run_type, "tool");
  assert.equal(tool.name, "weather");
  assert.deepEqual(tool.inputs, { city: "Rome" });
  assert.deepEqual(tool.outputs, { temp: 21 });
});

test("the outer generateText span is a chain with the prompt as messages; its usage is not counted again", () => {
  const run = runOf(
    span(
      {
        "ai.operationId": "ai.generateText",
        "ai.prompt": JSON.stringify({ system: "Be nice.", prompt: "Hi!" }),
        "ai.response.text": "Hello!",
        "ai.usage.inputTokens": 10,
        "ai.usage.outputTokens": 2,
      },
      { name: "ai.generateText" },
    ),
  );
  assert.equal(run.run_type, "chain");
  assert.deepEqual(run.inputs, {
    messages: [
      { role: "system", content: "Be nice." },
      { role: "user", content: "Hi!" },
    ],
  });
  assert.deepEqual(run.outputs, { output: "Hello!" });
  assert.equal(run.extra.metadata.usage_metadata, undefined);
});

test("streamText doStream: first chunk time becomes a new_token event", () => {
  const run = runOf(
    span({
      "ai.operationId": "ai.streamText.doStream",
      "ai.model.id": "gpt-4o",
      "ai.response.msToFirstChunk": 420.5,
      "ai.response.text": "streamed",
    }),
  );
  assert.equal(run.run_type, "llm");
  assert.equal(run.extra.invocation_params?.stream, true);
  assert.deepEqual(run.events, [{ name: "new_token", time: "2025-11-23T08:00:00.543956Z", kwargs: { token: "" } }]);
});
