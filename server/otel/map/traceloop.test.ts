import { test } from "node:test";
import assert from "node:assert/strict";
import { runOf, span } from "../test-spans";

test("OpenLLMetry workflow and task spans: entity name, input and output, association properties", () => {
  const workflow = runOf(
    span(
      {
        "traceloop.span.kind": "workflow",
        "traceloop.workflow.name": "joke_generator",
        "traceloop.entity.name": "joke_generator",
        "traceloop.entity.input": '{"args":[],"kwargs":{"topic":"otters"}}',
        "traceloop.entity.output": '"Why did the otter..."',
        "traceloop.association.properties.user_id": "u-42",
      },
      { name: "joke_generator.workflow" },
    ),
  );
  assert.equal(workflow.run_type, "chain");
  assert.equal(workflow.name, "joke_generator");
  assert.deepEqual(workflow.inputs, { args: [], kwargs: { topic: "otters" } });
  assert.deepEqual(workflow.outputs, { output: "Why did the otter..." });
  assert.equal(workflow.extra.metadata.user_id, "u-42");

  const tool = runOf(span({ "traceloop.span.kind": "tool", "traceloop.entity.name": "lookup", "traceloop.entity.input": "otters" }));
  assert.equal(tool.run_type, "tool");
  assert.deepEqual(tool.inputs, { input: "otters" });
});

test("OpenLLMetry OpenAI span: llm.request.type, flattened prompt/completion, usage and streaming", () => {
  const run = runOf(
    span(
      {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "llm.is_streaming": true,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Tell me a joke about otters",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "Otters hold hands.",
        "gen_ai.completion.0.finish_reason": "stop",
        "gen_ai.usage.prompt_tokens": 14,
        "gen_ai.usage.completion_tokens": 5,
        "llm.usage.total_tokens": 19,
      },
      { name: "openai.chat", kind: 3 },
    ),
  );
  assert.equal(run.run_type, "llm");
  assert.equal(run.name, "openai.chat");
  assert.deepEqual(run.inputs, { messages: [{ role: "user", content: "Tell me a joke about otters" }] });
  assert.deepEqual(run.outputs?.choices, [
    { index: 0, message: { role: "assistant", content: "Otters hold hands." }, finish_reason: "stop" },
  ]);
  assert.deepEqual(run.outputs?.usage_metadata, { input_tokens: 14, output_tokens: 5, total_tokens: 19 });
  assert.equal(run.extra.invocation_params?.stream, true);
  assert.equal(run.extra.metadata.ls_model_name, "gpt-4o-mini");
});

test("llm.request.type embedding makes an embedding run", () => {
  assert.equal(runOf(span({ "llm.request.type": "embedding", "gen_ai.request.model": "text-embedding-3-small" })).run_type, "embedding");
});
