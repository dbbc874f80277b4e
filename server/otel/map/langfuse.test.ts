import { test } from "node:test";
import assert from "node:assert/strict";
import { runOf, span, T0 } from "../test-spans";

/** Attributes as `@langfuse/tracing` v5 and the Python SDK v3 write them (JSON strings for content). */
test("Langfuse generation: type, messages, model, parameters, usage and cost details, first token", () => {
  const completionStart = new Date(Number(T0 / 1_000_000n) + 250).toISOString();
  const run = runOf(
    span(
      {
        "langfuse.observation.type": "generation",
        "langfuse.observation.input": JSON.stringify([{ role: "user", content: "Hi" }]),
        "langfuse.observation.output": JSON.stringify({ role: "assistant", content: "Hello!" }),
        "langfuse.observation.model.name": "gpt-4o-mini",
        "langfuse.observation.model.parameters": JSON.stringify({ temperature: 0.2, max_tokens: 50 }),
        "langfuse.observation.usage_details": JSON.stringify({ input: 10, output: 4, input_cached_tokens: 2 }),
        "langfuse.observation.cost_details": JSON.stringify({ input: 0.001, output: 0.002 }),
        "langfuse.observation.completion_start_time": JSON.stringify(completionStart),
        "langfuse.observation.prompt.name": "greeter",
        "langfuse.observation.prompt.version": 3,
        "langfuse.observation.metadata.team": "search",
        "langfuse.observation.metadata.flags": '{"beta":true}',
        "langfuse.environment": "staging",
        "langfuse.release": "r-7",
      },
      { name: "chat", parentSpanId: "a1b2c3d4e5f60718" },
    ),
    "lf-project",
  );
  assert.equal(run.run_type, "llm");
  assert.equal(run.name, "chat");
  assert.equal(run.session_name, "lf-project");
  assert.deepEqual(run.inputs, { messages: [{ role: "user", content: "Hi" }] });
  assert.deepEqual(run.outputs?.choices, [{ index: 0, message: { role: "assistant", content: "Hello!" } }]);
  assert.deepEqual(run.extra.invocation_params, { temperature: 0.2, max_tokens: 50 });
  const usage = run.outputs?.usage_metadata as Record<string, unknown>;
  assert.equal(usage.input_tokens, 12);
  assert.equal(usage.output_tokens, 4);
  assert.equal(usage.total_tokens, 16);
  assert.deepEqual(usage.input_token_details, { cache_read: 2 });
  assert.equal(usage.input_cost, 0.001);
  assert.equal(usage.total_cost, 0.003);
  const m = run.extra.metadata;
  assert.equal(m.ls_model_name, "gpt-4o-mini");
  assert.equal(m.prompt_name, "greeter");
  assert.equal(m.prompt_version, 3);
  assert.equal(m.team, "search");
  assert.deepEqual(m.flags, { beta: true });
  assert.equal(m.environment, "staging");
  assert.equal(m.release, "r-7");
  assert.equal(m.langfuse_type, "generation");
  assert.equal(m["langfuse.observation.input"], undefined, "content attributes are not repeated as metadata");
  const first = run.events.find((e) => e.name === "new_token");
  assert.equal(first?.time.slice(0, 23), completionStart.slice(0, 23));
});

test("Langfuse root span: trace name, trace input/output, user and session, tags; span → chain", () => {
  const run = runOf(
    span({
      "langfuse.observation.type": "span",
      "langfuse.trace.name": "checkout",
      "langfuse.trace.input": '{"cart":3}',
      "langfuse.trace.output": '"done"',
      "langfuse.trace.tags": ["prod", "beta"],
      "langfuse.trace.metadata.tenant": "acme",
      "user.id": "u-1",
      "session.id": "s-9",
      "langfuse.version": "1.2.0",
      "langfuse.internal.as_root": true,
    }),
  );
  assert.equal(run.run_type, "chain");
  assert.equal(run.name, "checkout");
  assert.deepEqual(run.inputs, { cart: 3 });
  assert.deepEqual(run.outputs, { output: "done" });
  assert.deepEqual(run.tags, ["prod", "beta"]);
  assert.equal(run.session_name, "default");
  const m = run.extra.metadata;
  assert.equal(m.user_id, "u-1");
  assert.equal(m.session_id, "s-9");
  assert.equal(m.tenant, "acme");
  assert.equal(m.version, "1.2.0");
  assert.equal(m["user.id"], undefined);
  assert.equal(m["langfuse.internal.as_root"], undefined);
});

test("Langfuse level ERROR: the status message is the run's error; other kinds map to their run types", () => {
  const failed = runOf(
    span({ "langfuse.observation.type": "tool", "langfuse.observation.level": "ERROR", "langfuse.observation.status_message": "timeout" }),
  );
  assert.equal(failed.run_type, "tool");
  assert.equal(failed.error, "timeout");
  assert.equal(failed.extra.metadata.level, "ERROR");
  const warned = runOf(span({ "langfuse.observation.type": "retriever", "langfuse.observation.level": "WARNING" }));
  assert.equal(warned.run_type, "retriever");
  assert.equal(warned.error, undefined);
  const event = runOf(span({ "langfuse.observation.type": "event" }));
  assert.equal(event.run_type, "chain");
  assert.equal(event.end_time, event.start_time, "an event is a point in time");
  assert.equal(runOf(span({ "langfuse.observation.type": "embedding" })).run_type, "embedding");
});

test("spans without langfuse.* attributes keep user.id and session.id as plain metadata", () => {
  const run = runOf(span({ "user.id": "u-2", "session.id": "s-2" }));
  assert.equal(run.extra.metadata["user.id"], "u-2");
  assert.equal(run.extra.metadata.user_id, undefined);
});
