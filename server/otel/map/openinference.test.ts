import { test } from "node:test";
import assert from "node:assert/strict";
import { runOf, span } from "../test-spans";

test("OpenInference LLM span: flattened messages, tool calls, token counts with details, invocation parameters", () => {
  const run = runOf(
    span(
      {
        "openinference.span.kind": "LLM",
        "llm.system": "openai",
        "llm.provider": "openai",
        "llm.model_name": "gpt-4o",
        "llm.invocation_parameters": '{"temperature": 0.1, "max_tokens": 500}',
        "input.value": '{"messages":[{"role":"user","content":"Find flights"}]}',
        "input.mime_type": "application/json",
        "output.value": '{"id":"chatcmpl-1"}',
        "output.mime_type": "application/json",
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": "You book flights.",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.contents.0.message_content.type": "text",
        "llm.input_messages.1.message.contents.0.message_content.text": "Find flights to",
        "llm.input_messages.1.message.contents.1.message_content.type": "image",
        "llm.input_messages.1.message.contents.1.message_content.image.image.url": "https://x/map.png",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_7",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "search_flights",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"to":"OSL"}',
        "llm.token_count.prompt": 300,
        "llm.token_count.completion": 20,
        "llm.token_count.total": 320,
        "llm.token_count.prompt_details.cache_read": 256,
        "llm.token_count.completion_details.reasoning": 4,
        metadata: '{"tenant":"acme"}',
        "session.id": "sess-1",
        "tag.tags": ["prod", "flights"],
        "llm.tools.0.tool.json_schema": '{"type":"function","function":{"name":"search_flights"}}',
      },
      { name: "ChatCompletion" },
    ),
  );

  assert.equal(run.run_type, "llm");
  assert.deepEqual(run.inputs.messages, [
    { role: "system", content: "You book flights." },
    {
      role: "user",
      content: [
        { type: "text", text: "Find flights to" },
        { type: "image_url", image_url: { url: "https://x/map.png" } },
      ],
    },
  ]);
  assert.deepEqual(run.outputs?.choices, [
    {
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_7", type: "function", function: { name: "search_flights", arguments: '{"to":"OSL"}' } }],
      },
    },
  ]);
  assert.deepEqual(run.outputs?.usage_metadata, {
    input_tokens: 300,
    output_tokens: 20,
    total_tokens: 320,
    input_token_details: { cache_read: 256 },
    output_token_details: { reasoning: 4 },
  });
  assert.equal(run.extra.metadata.ls_model_name, "gpt-4o");
  assert.equal(run.extra.metadata.ls_provider, "openai");
  assert.equal(run.extra.metadata.tenant, "acme");
  assert.equal(run.extra.metadata.session_id, "sess-1");
  assert.deepEqual(run.tags, ["prod", "flights"]);
  assert.deepEqual(run.extra.invocation_params, {
    temperature: 0.1,
    max_tokens: 500,
    model: "gpt-4o",
    tools: [{ type: "function", function: { name: "search_flights" } }],
  });
});

test("OpenInference chain, tool and retriever spans use input.value / output.value and documents", () => {
  const chain = runOf(
    span({
      "openinference.span.kind": "CHAIN",
      "input.value": "What is OTel?",
      "input.mime_type": "text/plain",
      "output.value": "A standard.",
    }),
  );
  assert.equal(chain.run_type, "chain");
  assert.deepEqual(chain.inputs, { input: "What is OTel?" });
  assert.deepEqual(chain.outputs, { output: "A standard." });

  const tool = runOf(
    span({
      "openinference.span.kind": "TOOL",
      "tool.name": "calculator",
      "input.value": '{"expr":"2*3"}',
      "input.mime_type": "application/json",
      "output.value": "6",
    }),
  );
  assert.equal(tool.run_type, "tool");
  assert.equal(tool.name, "calculator");
  assert.deepEqual(tool.inputs, { expr: "2*3" });

  const retriever = runOf(
    span({
      "openinference.span.kind": "RETRIEVER",
      "input.value": "otel",
      "retrieval.documents.0.document.content": "OpenTelemetry is...",
      "retrieval.documents.0.document.metadata": '{"source":"wiki"}',
      "retrieval.documents.0.document.score": 0.9,
      "retrieval.documents.1.document.content": "OTLP is...",
    }),
  );
  assert.equal(retriever.run_type, "retriever");
  assert.deepEqual(retriever.outputs, {
    documents: [
      { page_content: "OpenTelemetry is...", metadata: { source: "wiki" }, score: 0.9 },
      { page_content: "OTLP is...", metadata: {} },
    ],
  });
});

test("OpenInference embedding span", () => {
  const run = runOf(
    span({
      "openinference.span.kind": "EMBEDDING",
      "embedding.model_name": "text-embedding-3-small",
      "embedding.embeddings.0.embedding.text": "hello",
      "embedding.embeddings.1.embedding.text": "world",
      "llm.token_count.prompt": 2,
      "llm.token_count.total": 2,
    }),
  );
  assert.equal(run.run_type, "embedding");
  assert.deepEqual(run.inputs, { input: ["hello", "world"] });
  assert.deepEqual(run.outputs?.usage_metadata, { input_tokens: 2, total_tokens: 2 });
  assert.equal(run.extra.metadata.ls_model_name, "text-embedding-3-small");
});
