import { test } from "node:test";
import assert from "node:assert/strict";
import { spansToRuns } from "../to-runs";
import { runOf, span, T0 } from "../test-spans";

const RUN_ID = "0b9e1c1e-6a5d-4c53-9a55-6a3cbb3e7d01";
const PARENT_ID = "0b9e1c1e-6a5d-4c53-9a55-6a3cbb3e7d00";

test("langsmith.* attributes: name, kind (any case), ids, tags, metadata, usage, project", () => {
  const run = runOf(
    span(
      {
        "langsmith.trace.name": "ChatOpenAI",
        "langsmith.span.kind": "LLM",
        "langsmith.span.id": RUN_ID,
        "langsmith.trace.id": PARENT_ID,
        "langsmith.span.parent_id": PARENT_ID,
        "langsmith.span.tags": "prod, beta",
        "langsmith.metadata.ls_provider": "openai",
        "langsmith.metadata.ls_model_name": "gpt-4o",
        "langsmith.metadata.invocation": '{"temperature":0}',
        "langsmith.metadata.user": "ada",
        "langsmith.usage_metadata": JSON.stringify({
          input_tokens: 9,
          output_tokens: 3,
          total_tokens: 12,
          input_token_details: { cache_read: 4 },
        }),
        "langsmith.trace.session_name": "ls-project",
        "gen_ai.system": "langchain",
        "gen_ai.operation.name": "chat",
        "gen_ai.prompt": JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
        "gen_ai.completion": JSON.stringify({ choices: [{ message: { role: "assistant", content: "hello" } }] }),
      },
      { name: "otel-name" },
    ),
  );
  assert.equal(run.id, RUN_ID);
  assert.equal(run.trace_id, PARENT_ID);
  assert.equal(run.parent_run_id, PARENT_ID);
  assert.equal(run.dotted_order, undefined, "the parent is not in the request: ingest places it");
  assert.equal(run.name, "ChatOpenAI");
  assert.equal(run.run_type, "llm");
  assert.deepEqual(run.tags, ["prod", "beta"]);
  assert.equal(run.session_name, "ls-project");
  assert.equal(run.extra.metadata.ls_provider, "openai", "SDK metadata beats gen_ai.system");
  assert.deepEqual(run.extra.metadata.invocation, { temperature: 0 });
  assert.equal(run.extra.metadata.user, "ada");
  assert.deepEqual(run.inputs, { messages: [{ role: "user", content: "hi" }] });
  assert.deepEqual(run.outputs, {
    choices: [{ message: { role: "assistant", content: "hello" } }],
    usage_metadata: { input_tokens: 9, output_tokens: 3, total_tokens: 12, input_token_details: { cache_read: 4 } },
  });
});

test("a given dotted_order is kept when it agrees with the ids, dropped when it does not", () => {
  const stamp = "20251123T080000123456Z";
  const good = `${stamp}${PARENT_ID}.${stamp}${RUN_ID}`;
  const attrs = { "langsmith.span.id": RUN_ID, "langsmith.span.parent_id": PARENT_ID, "langsmith.trace.id": PARENT_ID };
  assert.equal(runOf(span({ ...attrs, "langsmith.span.dotted_order": good })).dotted_order, good);
  assert.equal(runOf(span({ ...attrs, "langsmith.span.dotted_order": `${stamp}${RUN_ID}` })).dotted_order, undefined);
  assert.equal(runOf(span({ ...attrs, "langsmith.span.dotted_order": "garbage" })).dotted_order, undefined);
});

test("session_id is used when no project name is given; langsmith.is_root cuts the OTel parent", () => {
  const sessionId = "6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d";
  const run = runOf(span({ "langsmith.trace.session_id": sessionId }));
  assert.equal(run.session_id, sessionId);
  assert.equal(run.session_name, undefined);
  const root = runOf(span({ "langsmith.is_root": true }, { parentSpanId: "1111111111111111" }));
  assert.equal(root.parent_run_id, undefined);
  assert.equal(root.trace_id, root.id);
});

test("children point at a parent's langsmith.span.id when the parent is in the same request", () => {
  const parent = span({ "langsmith.span.id": PARENT_ID }, { startTimeUnixNano: T0 });
  const child = span({}, { parentSpanId: parent.spanId, startTimeUnixNano: T0 + 1000n });
  const { runs } = spansToRuns({ spans: [child, parent] });
  const [c, p] = runs;
  assert.equal(p.id, PARENT_ID);
  assert.equal(c.parent_run_id, PARENT_ID);
  assert.equal(c.trace_id, PARENT_ID);
  assert.equal(c.dotted_order, `${p.dotted_order}.20251123T080000123457Z${c.id}`);
});
