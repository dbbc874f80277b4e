import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { exportTraces } from "./export";
import { jsonBody, newSpanId, protobufBody, row, TRACE } from "./test-export-bodies";

withTestDatabases("otel export", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "otel tests")).id;
  });

  test("a protobuf export of a GenAI tree is stored as a trace with an llm run carrying tokens", async () => {
    const agent = newSpanId();
    const chat = newSpanId();
    const tool = newSpanId();
    const response = await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      projectName: "otel-proto",
      bytes: protobufBody([
        {
          spanId: tool,
          parentSpanId: agent,
          name: "execute_tool search",
          startOffsetMs: 900,
          durationMs: 50,
          attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" },
        },
        {
          spanId: chat,
          parentSpanId: agent,
          name: "chat gpt-4o-mini",
          startOffsetMs: 10,
          durationMs: 800,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]),
            "gen_ai.output.messages": JSON.stringify([
              { role: "assistant", parts: [{ type: "text", content: "hello" }], finish_reason: "stop" },
            ]),
            "gen_ai.usage.input_tokens": 1000,
            "gen_ai.usage.output_tokens": 200,
          },
        },
        {
          spanId: agent,
          name: "invoke_agent helper",
          startOffsetMs: 0,
          durationMs: 1000,
          attributes: { "gen_ai.operation.name": "invoke_agent" },
        },
      ]),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/x-protobuf");
    assert.equal((await response.arrayBuffer()).byteLength, 0);

    const [a, c, t] = [await row(db, agent), await row(db, chat), await row(db, tool)];
    assert.equal(a.project, "otel-proto");
    assert.equal(a.is_root, true);
    assert.equal(a.trace_id, a.id);
    assert.equal(c.trace_id, a.id);
    assert.equal(c.parent_run_id, a.id);
    assert.equal(t.parent_run_id, a.id);
    assert.ok(c.dotted_order.startsWith(`${a.dotted_order}.`));
    assert.equal(c.run_type, "llm");
    assert.equal(c.status, "success");
    assert.equal(c.total_tokens, 1200);
    assert.equal(c.prompt_tokens, 1000);
    assert.ok(Number(c.total_cost) > 0, "gpt-4o-mini is priced like a native run");
    assert.deepEqual(c.inputs, { messages: [{ role: "user", content: "hi" }] });
    assert.equal(t.run_type, "tool");
    assert.equal(t.name, "search");
  });

  test("a child exported before its parent is kept, then placed under it when the parent arrives", async () => {
    const parent = newSpanId();
    const child = newSpanId();
    const first = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([{ spanId: child, parentSpanId: parent, name: "child", startOffsetMs: 5, durationMs: 5 }]),
    });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), {});
    assert.equal((await row(db, child)).placement_pending, true);

    await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([{ spanId: parent, name: "parent", startOffsetMs: 0, durationMs: 20 }]),
    });
    const [p, c] = [await row(db, parent), await row(db, child)];
    assert.equal(c.placement_pending, false);
    assert.equal(c.trace_id, p.id);
    assert.equal(c.parent_run_id, p.id);
    assert.ok(c.dotted_order.startsWith(`${p.dotted_order}.`));
    assert.equal(p.project, "default");
  });

  test("rejected spans are reported as partial success; the rest are stored", async () => {
    const good = newSpanId();
    const body = JSON.parse(jsonBody([{ spanId: good, name: "good", startOffsetMs: 0, durationMs: 1 }]).toString());
    body.resourceSpans[0].scopeSpans[0].spans.push({ traceId: TRACE, spanId: "", name: "no id", startTimeUnixNano: "1" });
    const response = await exportTraces(db, ws, { contentType: "application/json", bytes: Buffer.from(JSON.stringify(body)) });
    assert.equal(response.status, 200);
    const answer = await response.json();
    assert.equal(answer.partialSuccess.rejectedSpans, "1");
    assert.match(answer.partialSuccess.errorMessage, /missing or invalid span id/);
    assert.equal((await row(db, good)).name, "good");
  });

  test("an unknown langsmith.trace.session_id does not fail the export: the span goes to default with a warning", async () => {
    const orphan = newSpanId();
    const response = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([
        {
          spanId: orphan,
          name: "orphan",
          startOffsetMs: 0,
          durationMs: 1,
          attributes: { "langsmith.trace.session_id": "6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d" },
        },
      ]),
    });
    assert.equal(response.status, 200);
    const answer = await response.json();
    assert.equal(answer.partialSuccess.rejectedSpans, "0");
    assert.match(answer.partialSuccess.errorMessage, /Unknown project id 6f1f4a4e-8b1e-4f7a-9d7e-3c2b1a0f9e8d/);
    assert.equal((await row(db, orphan)).project, "default");
  });

  test("undecodable bodies are 400 with a Status in the request's encoding; other content types 415", async () => {
    const bad = await exportTraces(db, ws, { contentType: "application/json", bytes: Buffer.from("{nope") });
    assert.equal(bad.status, 400);
    const status = await bad.json();
    assert.equal(status.code, 3);
    assert.match(status.message, /not valid JSON/);
    const badProto = await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      bytes: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]),
    });
    assert.equal(badProto.status, 400);
    assert.equal(badProto.headers.get("content-type"), "application/x-protobuf");
    await assert.rejects(exportTraces(db, ws, { contentType: "text/plain", bytes: Buffer.from("x") }), (e: AppError) => e.status === 415);
  });
});
