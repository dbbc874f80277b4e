import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import protobuf from "protobufjs";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { exportTraces } from "./export";
import { uuidFromOtelSpanId } from "./ids";

/** Bodies are encoded the way an exporter encodes them, with an independent protobufjs root. */
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(process.cwd(), "server/otel/proto", target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto");
const Request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");

const T0 = 1_763_884_800_000_000_000n;
let next = 0;
const newSpanId = () => (0x5a5a000000000000n + BigInt(++next)).toString(16);
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

interface SpanSpec {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startOffsetMs: number;
  durationMs: number;
  attributes?: Record<string, string | number>;
}

const kv = (attributes: Record<string, string | number> = {}) =>
  Object.entries(attributes).map(([key, value]) => ({
    key,
    value: typeof value === "number" ? (Number.isInteger(value) ? { intValue: value } : { doubleValue: value }) : { stringValue: value },
  }));

function protobufBody(spans: SpanSpec[]): Buffer {
  return Buffer.from(
    Request.encode(
      Request.fromObject({
        resourceSpans: [
          {
            resource: { attributes: kv({ "service.name": "otel-export-test" }) },
            scopeSpans: [
              {
                scope: { name: "test" },
                spans: spans.map((s) => ({
                  traceId: Buffer.from(TRACE, "hex"),
                  spanId: Buffer.from(s.spanId, "hex"),
                  parentSpanId: s.parentSpanId ? Buffer.from(s.parentSpanId, "hex") : undefined,
                  name: s.name,
                  kind: 1,
                  startTimeUnixNano: String(T0 + BigInt(s.startOffsetMs) * 1_000_000n),
                  endTimeUnixNano: String(T0 + BigInt(s.startOffsetMs + s.durationMs) * 1_000_000n),
                  attributes: kv(s.attributes),
                })),
              },
            ],
          },
        ],
      }),
    ).finish(),
  );
}

function jsonBody(spans: SpanSpec[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: spans.map((s) => ({
                traceId: TRACE,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? "",
                name: s.name,
                startTimeUnixNano: String(T0 + BigInt(s.startOffsetMs) * 1_000_000n),
                endTimeUnixNano: String(T0 + BigInt(s.startOffsetMs + s.durationMs) * 1_000_000n),
                attributes: kv(s.attributes),
              })),
            },
          ],
        },
      ],
    }),
  );
}

async function row(db: Sql, spanId: string) {
  const [r] = await db.query<Record<string, any>>(
    sql`SELECT r.*, p.name AS project FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.id = ${uuidFromOtelSpanId(spanId)}`,
  );
  return r;
}

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

  test("every convention's LLM span is an llm run under its parent with tokens and cost", async () => {
    const root = newSpanId();
    const model = {
      openinference: "llm.model_name",
      traceloop: "gen_ai.request.model",
      vercel: "ai.model.id",
      langsmith: "langsmith.metadata.ls_model_name",
    };
    const conventions: Record<keyof typeof model, Record<string, string | number>> = {
      openinference: {
        "openinference.span.kind": "LLM",
        "llm.provider": "openai",
        "llm.token_count.prompt": 100,
        "llm.token_count.completion": 50,
      },
      traceloop: {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.usage.prompt_tokens": 100,
        "gen_ai.usage.completion_tokens": 50,
      },
      vercel: {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.provider": "openai.chat",
        "ai.usage.inputTokens": 100,
        "ai.usage.outputTokens": 50,
      },
      langsmith: {
        "langsmith.span.kind": "llm",
        "langsmith.metadata.ls_provider": "openai",
        "langsmith.usage_metadata": '{"input_tokens":100,"output_tokens":50,"total_tokens":150}',
      },
    };
    const ids = Object.fromEntries(Object.keys(conventions).map((name) => [name, newSpanId()]));
    await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      bytes: protobufBody([
        { spanId: root, name: "root", startOffsetMs: 0, durationMs: 100 },
        ...Object.entries(conventions).map(([name, attributes], i) => ({
          spanId: ids[name],
          parentSpanId: root,
          name,
          startOffsetMs: i + 1,
          durationMs: 10,
          attributes: { ...attributes, [model[name as keyof typeof model]]: "gpt-4o" },
        })),
      ]),
    });
    const parent = await row(db, root);
    for (const name of Object.keys(conventions)) {
      const r = await row(db, ids[name]);
      assert.equal(r.run_type, "llm", name);
      assert.equal(r.parent_run_id, parent.id, name);
      assert.equal(r.total_tokens, 150, name);
      assert.equal(r.model, "gpt-4o", name);
      assert.ok(Number(r.total_cost) > 0, `${name}: cost ${r.total_cost}`);
    }
  });

  test("time to first chunk and the conversation id reach first_token_time and thread_id", async () => {
    const streamed = newSpanId();
    await exportTraces(db, ws, {
      contentType: "application/x-protobuf",
      bytes: protobufBody([
        {
          spanId: streamed,
          name: "chat",
          startOffsetMs: 0,
          durationMs: 2000,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o",
            "gen_ai.response.time_to_first_chunk": 0.35,
            "gen_ai.conversation.id": "conv-42",
          },
        },
      ]),
    });
    const r = await row(db, streamed);
    assert.equal(new Date(r.first_token_time).getTime() - new Date(r.start_time).getTime(), 350);
    assert.equal(r.thread_id, "conv-42");
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
