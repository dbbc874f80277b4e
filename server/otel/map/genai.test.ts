import { test } from "node:test";
import assert from "node:assert/strict";
import { event, runOf, span } from "../test-spans";

test("current semconv chat span: JSON-string messages, system instructions, usage with cache and reasoning", () => {
  const run = runOf(
    span(
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.request.temperature": 0.2,
        "gen_ai.request.max_tokens": 256,
        "gen_ai.request.stop_sequences": ["\n\n"],
        "gen_ai.response.id": "chatcmpl-123",
        "gen_ai.response.finish_reasons": ["stop"],
        "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "You are terse." }]),
        "gen_ai.input.messages": JSON.stringify([
          { role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] },
          { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] },
          { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "rainy, 12°C" }] },
        ]),
        "gen_ai.output.messages": JSON.stringify([
          {
            role: "assistant",
            parts: [
              { type: "reasoning", content: "Use the tool result." },
              { type: "text", content: "Rainy, 12°C." },
            ],
            finish_reason: "stop",
          },
        ]),
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 30,
        "gen_ai.usage.cache_read.input_tokens": 100,
        "gen_ai.usage.cache_creation.input_tokens": 5,
        "gen_ai.usage.reasoning.output_tokens": 12,
        "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "get_weather", parameters: { type: "object" } }]),
        "http.route": "/chat",
      },
      { name: "chat gpt-4o-mini", kind: 3 },
    ),
  );

  assert.equal(run.run_type, "llm");
  assert.equal(run.name, "chat gpt-4o-mini");
  assert.deepEqual(run.inputs.messages, [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
    },
    { role: "tool", content: "rainy, 12°C", tool_call_id: "call_1" },
  ]);
  assert.deepEqual(run.outputs?.choices, [
    {
      index: 0,
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", reasoning: "Use the tool result." },
          { type: "text", text: "Rainy, 12°C." },
        ],
      },
      finish_reason: "stop",
    },
  ]);
  const usage = {
    input_tokens: 120,
    output_tokens: 30,
    total_tokens: 150,
    input_token_details: { cache_read: 100, cache_creation: 5 },
    output_token_details: { reasoning: 12 },
  };
  assert.deepEqual(run.outputs?.usage_metadata, usage);
  assert.equal(run.extra.metadata.ls_provider, "openai");
  assert.equal(run.extra.metadata.ls_model_name, "gpt-4o-mini");
  assert.equal(run.extra.metadata.response_model, "gpt-4o-mini-2024-07-18");
  assert.equal(run.extra.metadata["http.route"], "/chat", "attributes of no convention are kept");
  assert.equal(run.extra.metadata["service.name"], "test-service", "resource attributes are metadata");
  assert.equal(run.extra.metadata["gen_ai.input.messages"], undefined, "mapped content is not duplicated");
  assert.deepEqual(run.extra.metadata.usage_metadata, usage);
  assert.deepEqual(run.extra.invocation_params, {
    model: "gpt-4o-mini",
    temperature: 0.2,
    max_tokens: 256,
    stop: ["\n\n"],
    tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }],
  });
});

test("structured (kvlist/array) message attributes read the same as JSON strings; finish reasons fill in", () => {
  const run = runOf(
    span({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "gcp.gemini",
      "gen_ai.request.model": "gemini-2.5-flash",
      "gen_ai.input.messages": [
        {
          role: "user",
          parts: [
            { type: "text", content: "Hi" },
            { type: "uri", modality: "image", uri: "https://x/cat.png" },
          ],
        },
      ],
      "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "Hello!" }] }],
      "gen_ai.response.finish_reasons": ["stop"],
    }),
  );
  assert.deepEqual(run.inputs.messages, [
    {
      role: "user",
      content: [
        { type: "text", text: "Hi" },
        { type: "image_url", image_url: { url: "https://x/cat.png" } },
      ],
    },
  ]);
  assert.deepEqual(run.outputs?.choices, [{ index: 0, message: { role: "assistant", content: "Hello!" }, finish_reason: "stop" }]);
  assert.equal(run.extra.metadata.ls_provider, "google_genai");
  assert.equal(run.outputs?.usage_metadata, undefined, "no usage sent, none invented");
});

test("deprecated flattened gen_ai.prompt.N / gen_ai.completion.N with tool calls and gen_ai.system", () => {
  const run = runOf(
    span(
      {
        "llm.request.type": "chat",
        "gen_ai.system": "Anthropic",
        "gen_ai.request.model": "claude-sonnet-4-5",
        "gen_ai.prompt.0.role": "system",
        "gen_ai.prompt.0.content": "Be brief.",
        "gen_ai.prompt.1.role": "user",
        "gen_ai.prompt.1.content": "Add 2 and 3",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.finish_reason": "tool_use",
        "gen_ai.completion.0.tool_calls.0.id": "toolu_1",
        "gen_ai.completion.0.tool_calls.0.name": "add",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"a":2,"b":3}',
        "gen_ai.usage.prompt_tokens": 40,
        "gen_ai.usage.completion_tokens": 8,
        "gen_ai.usage.cache_read_input_tokens": 10,
      },
      { name: "anthropic.chat" },
    ),
  );
  assert.equal(run.run_type, "llm");
  assert.deepEqual(run.inputs.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Add 2 and 3" },
  ]);
  assert.deepEqual(run.outputs?.choices, [
    {
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "add", arguments: '{"a":2,"b":3}' } }],
      },
      finish_reason: "tool_use",
    },
  ]);
  assert.deepEqual(run.outputs?.usage_metadata, {
    input_tokens: 40,
    output_tokens: 8,
    total_tokens: 48,
    input_token_details: { cache_read: 10 },
  });
  assert.equal(run.extra.metadata.ls_provider, "anthropic");
});

test("deprecated per-message events become messages and choices, and are not repeated as run events", () => {
  const run = runOf(
    span(
      { "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o" },
      {
        events: [
          event("gen_ai.system.message", { content: "You help." }),
          event("gen_ai.user.message", { content: "What is 2+2?" }),
          event("gen_ai.tool.message", { content: "4", id: "call_9" }),
          event("gen_ai.choice", { index: 0, finish_reason: "stop", "message.role": "assistant", "message.content": "4" }),
          event("gen_ai.content.completion", { "gen_ai.completion": "ignored, the choice event came first" }),
          event("retry", { attempt: 1 }),
        ],
      },
    ),
  );
  assert.deepEqual(run.inputs.messages, [
    { role: "system", content: "You help." },
    { role: "user", content: "What is 2+2?" },
    { role: "tool", content: "4", tool_call_id: "call_9" },
  ]);
  assert.deepEqual(run.outputs?.choices, [{ index: 0, message: { role: "assistant", content: "4" }, finish_reason: "stop" }]);
  assert.deepEqual(
    run.events.map((e) => e.name),
    ["retry"],
  );
  assert.deepEqual(run.events[0].kwargs, { attempt: 1 });
});

test("the operation.details event carries messages for spans that keep content off attributes", () => {
  const run = runOf(
    span(
      { "gen_ai.operation.name": "text_completion", "gen_ai.request.model": "gpt-3.5-turbo-instruct" },
      {
        events: [
          event("gen_ai.client.inference.operation.details", {
            "gen_ai.input.messages": [{ role: "user", parts: [{ type: "text", content: "Say hi" }] }],
            "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "hi" }], finish_reason: "stop" }],
          }),
        ],
      },
    ),
  );
  assert.equal(run.run_type, "llm");
  assert.deepEqual(run.inputs.messages, [{ role: "user", content: "Say hi" }]);
  assert.equal((run.outputs?.choices as { message: { content: string } }[])[0].message.content, "hi");
  assert.deepEqual(run.events, []);
});

test("execute_tool span: tool run named after the tool, arguments in, result out", () => {
  const run = runOf(
    span(
      {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.arguments": '{"city":"Paris"}',
        "gen_ai.tool.call.result": "rainy",
      },
      { name: "execute_tool get_weather" },
    ),
  );
  assert.equal(run.run_type, "tool");
  assert.equal(run.name, "get_weather");
  assert.deepEqual(run.inputs, { city: "Paris" });
  assert.deepEqual(run.outputs, { output: "rainy" });
});

test("embeddings, agents and time to first chunk", () => {
  assert.equal(
    runOf(span({ "gen_ai.operation.name": "embeddings", "gen_ai.request.model": "text-embedding-3-small" })).run_type,
    "embedding",
  );
  const agent = runOf(
    span(
      { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "planner", "gen_ai.conversation.id": "conv-1" },
      { name: "invoke_agent planner" },
    ),
  );
  assert.equal(agent.run_type, "chain");
  assert.equal(agent.extra.metadata.conversation_id, "conv-1");
  const streamed = runOf(span({ "gen_ai.operation.name": "chat", "gen_ai.response.time_to_first_chunk": 0.25 }));
  assert.deepEqual(streamed.events[0], { name: "new_token", time: "2025-11-23T08:00:00.373456Z", kwargs: { token: "" } });
});

test("the LangSmith SDK's whole-run gen_ai.prompt / gen_ai.completion JSON become inputs and outputs as they are", () => {
  const run = runOf(
    span({
      "gen_ai.operation.name": "chat",
      "gen_ai.prompt": JSON.stringify({ question: "2+2?" }),
      "gen_ai.completion": JSON.stringify({ answer: "4" }),
    }),
  );
  assert.deepEqual(run.inputs, { question: "2+2?" });
  assert.deepEqual(run.outputs, { answer: "4" });
  assert.deepEqual(runOf(span({ "gen_ai.prompt": "plain text" })).inputs, { input: "plain text" });
});
