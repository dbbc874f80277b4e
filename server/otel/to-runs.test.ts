import { test } from "node:test";
import assert from "node:assert/strict";
import { uuidFromOtelSpanId } from "./ids";
import { event, span, T0 } from "./test-spans";
import { spansToRuns } from "./to-runs";
import { MAX_DOTTED_ORDER_LENGTH, MAX_TRACE_DEPTH } from "../core/trace-depth";

test("a tree in one request: ids from span ids, trace id from the root, dotted orders from start times, any span order", () => {
  const root = span(
    { "gen_ai.operation.name": "invoke_agent" },
    { name: "agent", startTimeUnixNano: T0, endTimeUnixNano: T0 + 3_000_000_000n },
  );
  const llm = span({ "gen_ai.operation.name": "chat" }, { name: "chat", parentSpanId: root.spanId, startTimeUnixNano: T0 + 1_000n });
  const tool = span(
    { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" },
    { parentSpanId: llm.spanId, startTimeUnixNano: T0 + 2_000_000n },
  );
  const { runs, rejected } = spansToRuns({ spans: [tool, llm, root] });
  assert.equal(rejected.count, 0);
  const [t, l, r] = runs;
  assert.equal(r.id, uuidFromOtelSpanId(root.spanId));
  assert.equal(r.parent_run_id, undefined);
  assert.equal(r.trace_id, r.id, "a trace's id is its root run's id, as in LangSmith");
  assert.equal(r.dotted_order, `20251123T080000123456Z${r.id}`);
  assert.equal(l.parent_run_id, r.id);
  assert.equal(l.trace_id, r.id);
  assert.equal(l.dotted_order, `${r.dotted_order}.20251123T080000123457Z${l.id}`);
  assert.equal(t.parent_run_id, l.id);
  assert.equal(t.dotted_order, `${l.dotted_order}.20251123T080000125456Z${t.id}`);
  assert.equal(r.start_time, "2025-11-23T08:00:00.123456Z");
  assert.equal(r.end_time, "2025-11-23T08:00:03.123456Z");
  assert.equal(r.session_name, "default");
  assert.equal(r.extra.metadata.otel_trace_id, root.traceId);
  assert.equal(r.extra.metadata.otel_span_id, root.spanId);
});

test("a child whose parent is not in the request keeps its parent and leaves placement to ingest", () => {
  const child = span({}, { parentSpanId: "00f067aa0ba902b7" });
  const { runs } = spansToRuns({ spans: [child] });
  assert.equal(runs[0].parent_run_id, "00000000-0000-0000-00f0-67aa0ba902b7");
  assert.equal(runs[0].trace_id, undefined);
  assert.equal(runs[0].dotted_order, undefined);
});

test("exception events and ERROR status make the run's error; other events stay events", () => {
  const failed = span(
    {},
    {
      status: { code: 2, message: "upstream 500" },
      events: [
        event("exception", {
          "exception.type": "APIError",
          "exception.message": "Internal Server Error",
          "exception.stacktrace": "APIError: Internal Server Error\n    at call (client.ts:10)",
        }),
        event("retry", { attempt: 2 }, 5_000n),
      ],
    },
  );
  const { runs } = spansToRuns({
    spans: [failed, span({}, { status: { code: 2, message: "timed out" } }), span({}, { status: { code: 2, message: "" } })],
  });
  assert.equal(runs[0].error, "APIError: Internal Server Error\n\nAPIError: Internal Server Error\n    at call (client.ts:10)");
  assert.deepEqual(runs[0].events, [
    {
      name: "exception",
      time: "2025-11-23T08:00:00.123457Z",
      kwargs: {
        "exception.type": "APIError",
        "exception.message": "Internal Server Error",
        "exception.stacktrace": "APIError: Internal Server Error\n    at call (client.ts:10)",
      },
    },
    { name: "retry", time: "2025-11-23T08:00:00.123461Z", kwargs: { attempt: 2 } },
  ]);
  assert.equal(runs[1].error, "timed out");
  assert.equal(runs[2].error, "Span ended with status ERROR");
  assert.equal(spansToRuns({ spans: [span({}, { status: { code: 1, message: "" } })] }).runs[0].error, undefined);
});

test("spans without ids or with bad times are rejected and counted; the rest are kept", () => {
  const good = span({});
  const { runs, rejected } = spansToRuns({
    spans: [
      span({}, { traceId: "" }),
      span({}, { spanId: "0000000000000000" }),
      span({}, { startTimeUnixNano: null }),
      span({}, { endTimeUnixNano: T0 - 1n }),
      good,
    ],
  });
  assert.deepEqual(
    runs.map((r) => r.id),
    [uuidFromOtelSpanId(good.spanId)],
  );
  assert.equal(rejected.count, 4);
  assert.match(
    rejected.message,
    /^4 spans rejected: span [0-9a-f]+: missing or invalid trace id; span 0000000000000000: missing or invalid span id; span [0-9a-f]+: missing start time; span [0-9a-f]+: end time before start time$/,
  );
});

test("an unfinished span has no end_time; nothing mapped means chain, span name, empty inputs", () => {
  const { runs } = spansToRuns({ spans: [span({ "db.system": "postgresql" }, { name: "SELECT", endTimeUnixNano: null })] });
  assert.equal(runs[0].end_time, undefined);
  assert.equal(runs[0].run_type, "chain");
  assert.equal(runs[0].name, "SELECT");
  assert.deepEqual(runs[0].inputs, {});
  assert.equal(runs[0].outputs, undefined);
  assert.equal(runs[0].extra.metadata["db.system"], "postgresql");
  assert.equal(runs[0].extra.metadata.otel_scope, "test-scope");
});

test("project: header, then langsmith session attributes, then OpenInference's resource project, then default", () => {
  const attrs = { "langsmith.trace.session_name": "from-span" };
  assert.equal(spansToRuns({ spans: [span(attrs)] }, { projectName: "from-header" }).runs[0].session_name, "from-header");
  assert.equal(spansToRuns({ spans: [span(attrs)] }).runs[0].session_name, "from-span");
  assert.equal(spansToRuns({ spans: [span({}, { resource: { "openinference.project.name": "oi" } })] }).runs[0].session_name, "oi");
  assert.equal(spansToRuns({ spans: [span({})] }).runs[0].session_name, "default");
});

test("spans whose parent chain loops are rejected alone, so ingest never sees a cycle", () => {
  const a = span({});
  const b = span({}, { parentSpanId: a.spanId });
  a.parentSpanId = b.spanId;
  const self = span({});
  self.parentSpanId = self.spanId;
  const fine = span({});
  const { runs, rejected } = spansToRuns({ spans: [a, b, self, fine] });
  assert.deepEqual(
    runs.map((r) => r.id),
    [uuidFromOtelSpanId(fine.spanId)],
  );
  assert.equal(rejected.count, 3);
  assert.match(rejected.message, /parent chain forms a cycle/);
});

test("times past year 9999 are rejected; a trace id that is not the root's id leaves placement to ingest", () => {
  const { runs, rejected } = spansToRuns({ spans: [span({}, { startTimeUnixNano: 300_000_000_000_000_000_000n })] });
  assert.equal(runs.length, 0);
  assert.match(rejected.message, /after year 9999/);
  const root = span({ "langsmith.trace.id": "6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d" });
  const child = span({}, { parentSpanId: root.spanId });
  const [r, c] = spansToRuns({ spans: [root, child] }).runs;
  assert.equal(r.trace_id, "6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d");
  assert.equal(r.dotted_order, undefined);
  assert.equal(c.trace_id, "6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d");
  assert.equal(c.dotted_order, undefined);
  assert.equal(c.parent_run_id, r.id);
});

test("generic attributes are dropped only by a convention that read the span", () => {
  const plain = spansToRuns({ spans: [span({ "user.id": "u1", "tool.name": "grep", "llm.request.type": "chat" })] }).runs[0];
  assert.equal(plain.extra.metadata["user.id"], "u1");
  assert.equal(plain.extra.metadata["tool.name"], "grep");
  assert.equal(plain.extra.metadata["llm.request.type"], undefined, "read by the OpenLLMetry adapter");
  const oi = spansToRuns({ spans: [span({ "openinference.span.kind": "TOOL", "user.id": "u1", "tool.name": "grep" })] }).runs[0];
  assert.equal(oi.extra.metadata["user.id"], undefined);
  assert.equal(oi.extra.metadata.user_id, "u1");
  assert.equal(oi.name, "grep");
});

test("a chain deeper than a trace may nest: the spans past 1,000 levels are rejected alone, their orders never built", () => {
  const chain = [span({})];
  for (let i = 1; i < 10_000; i++) chain.push(span({}, { parentSpanId: chain[i - 1].spanId, startTimeUnixNano: T0 + BigInt(i) }));
  // Children before parents, as exporters often send them.
  const { runs, rejected } = spansToRuns({ spans: [...chain].reverse() });
  assert.equal(runs.length, MAX_TRACE_DEPTH);
  assert.equal(rejected.count, 10_000 - MAX_TRACE_DEPTH);
  assert.match(rejected.message, /would nest 10,000 levels deep in its trace; a trace nests at most 1,000 levels/);
  const deepest = runs.find((r) => r.id === uuidFromOtelSpanId(chain[MAX_TRACE_DEPTH - 1].spanId))!;
  assert.equal(deepest.dotted_order!.split(".").length, MAX_TRACE_DEPTH);
  assert.equal(deepest.dotted_order!.length, MAX_DOTTED_ORDER_LENGTH);
});
