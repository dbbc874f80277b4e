import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { context, SpanStatusCode, trace, type Span as ApiSpan } from "@opentelemetry/api";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

/** The run id of a span, derived independently of the server: span id padded into a UUID, as the langsmith SDK does. */
const runId = (span: ApiSpan | ReadableSpan) => {
  const hex = span.spanContext().spanId;
  return `00000000-0000-0000-${hex.slice(0, 4)}-${hex.slice(4)}`;
};

/** Real SDK spans recorded in memory, so each test chooses which spans go in which export request. */
function recorder(service: string) {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": service, "deployment.environment": "e2e" }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
  });
  const tracer = provider.getTracer("tracelight-e2e", "1.0.0");
  return {
    start: (name: string, attributes: Record<string, string | number | boolean> = {}, parent?: ApiSpan) =>
      tracer.startSpan(name, { attributes }, parent ? trace.setSpan(context.active(), parent) : undefined),
    finished: () => memory.getFinishedSpans(),
  };
}

async function send(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
  assert.equal(result.code, 0, `export failed: ${result.error?.message}`);
}

describe("OpenTelemetry ingest with the real OTel SDK exporters", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  const readRun = (id: string, ready: (run: any) => boolean = () => true) =>
    eventually(async () => {
      const r = await call(server, "GET", `/runs/${id}`);
      return r.status === 200 && ready(r.body) ? r.body : null;
    });
  const protoExporter = (path = "/otel/v1/traces", project = "otel-e2e") =>
    new ProtoExporter({
      url: `${server.url}${path}`,
      headers: { "x-api-key": server.apiKey, "Langsmith-Project": project },
      compression: CompressionAlgorithm.GZIP,
    });
  const jsonExporter = (path = "/api/v1/otel/v1/traces") =>
    new JsonExporter({ url: `${server.url}${path}`, headers: { "x-api-key": server.apiKey } });

  test("GenAI spans (protobuf, gzip): a chain with an llm child carrying messages, tokens and cost, and a failed tool", async () => {
    const rec = recorder("agent-service");
    const agent = rec.start("invoke_agent travel", { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "travel" });
    const chat = rec.start(
      "chat gpt-4o-mini",
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.request.temperature": 0.2,
        "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "You plan trips." }]),
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Plan Oslo" }] }]),
        "gen_ai.output.messages": JSON.stringify([
          { role: "assistant", parts: [{ type: "text", content: "Day 1: fjords." }], finish_reason: "stop" },
        ]),
        "gen_ai.usage.input_tokens": 1200,
        "gen_ai.usage.output_tokens": 300,
        "gen_ai.usage.cache_read.input_tokens": 1000,
      },
      agent,
    );
    chat.end();
    const tool = rec.start(
      "execute_tool book_hotel",
      { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "book_hotel", "gen_ai.tool.call.arguments": '{"city":"Oslo"}' },
      agent,
    );
    tool.recordException(new Error("no rooms left"));
    tool.setStatus({ code: SpanStatusCode.ERROR, message: "no rooms left" });
    tool.end();
    agent.end();
    await send(protoExporter(), rec.finished());

    const root = await readRun(runId(agent), (r) => r.status === "success");
    assert.equal(root.run_type, "chain");
    assert.equal(root.parent_run_id, null);
    assert.equal(root.trace_id, root.id);
    assert.equal(root.extra.metadata["service.name"], "agent-service");

    const llm = await readRun(runId(chat), (r) => r.total_tokens !== null && r.total_tokens !== undefined);
    assert.equal(llm.run_type, "llm");
    assert.equal(llm.name, "chat gpt-4o-mini");
    assert.equal(llm.parent_run_id, root.id);
    assert.equal(llm.trace_id, root.id);
    assert.ok(llm.dotted_order.startsWith(`${root.dotted_order}.`));
    assert.deepEqual(llm.inputs.messages, [
      { role: "system", content: "You plan trips." },
      { role: "user", content: "Plan Oslo" },
    ]);
    assert.equal(llm.outputs.choices[0].message.content, "Day 1: fjords.");
    assert.equal(llm.prompt_tokens, 1200);
    assert.equal(llm.completion_tokens, 300);
    assert.equal(llm.total_tokens, 1500);
    assert.ok(Number(llm.total_cost) > 0, `expected a cost for gpt-4o-mini, got ${llm.total_cost}`);
    assert.equal(llm.extra.metadata.ls_model_name, "gpt-4o-mini");

    const failed = await readRun(runId(tool), (r) => r.status === "error");
    assert.equal(failed.run_type, "tool");
    assert.equal(failed.name, "book_hotel");
    assert.match(failed.error, /no rooms left/);
    assert.deepEqual(failed.inputs, { city: "Oslo" });

    const query = await call(server, "POST", "/runs/query", { trace: root.id });
    assert.equal(query.status, 200);
    assert.deepEqual(query.body.runs.map((r: any) => r.id).sort(), [root.id, llm.id, failed.id].sort());
  });

  test("a child exported before its parent is kept, and the trace is whole once the parent arrives", async () => {
    const rec = recorder("late-parent");
    const parent = rec.start("workflow", { "traceloop.span.kind": "workflow", "traceloop.entity.name": "summarise" });
    const child = rec.start(
      "openai.chat",
      {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Summarise OTel",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "Traces, metrics, logs.",
        "gen_ai.usage.prompt_tokens": 20,
        "gen_ai.usage.completion_tokens": 6,
      },
      parent,
    );
    child.end();
    const exporter = protoExporter();
    await send(exporter, rec.finished());
    const early = await readRun(runId(child));
    assert.equal(early.parent_run_id, runId(parent));

    parent.end();
    await send(
      exporter,
      rec.finished().filter((s) => s.name === "workflow"),
    );
    const root = await readRun(runId(parent));
    assert.equal(root.name, "summarise");
    const placed = await readRun(runId(child), (r) => r.trace_id === root.id && r.dotted_order.startsWith(`${root.dotted_order}.`));
    assert.equal(placed.run_type, "llm");
    assert.equal(placed.total_tokens, 26);
    assert.deepEqual(placed.inputs.messages, [{ role: "user", content: "Summarise OTel" }]);
  });

  test("Vercel AI SDK spans through the JSON exporter under /api/v1: one request, parent and child", async () => {
    const rec = recorder("next-app");
    const outer = rec.start("ai.generateText", {
      "ai.operationId": "ai.generateText",
      "ai.prompt": JSON.stringify({ prompt: "Hi" }),
      "ai.response.text": "Hello!",
    });
    const inner = rec.start(
      "ai.generateText.doGenerate",
      {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.id": "gpt-4o-mini",
        "ai.model.provider": "openai.chat",
        "ai.prompt.messages": JSON.stringify([{ role: "user", content: [{ type: "text", text: "Hi" }] }]),
        "ai.response.text": "Hello!",
        "ai.response.finishReason": "stop",
        "ai.usage.inputTokens": 8,
        "ai.usage.outputTokens": 3,
      },
      outer,
    );
    inner.end();
    outer.end();
    await send(jsonExporter(), rec.finished());
    const chain = await readRun(runId(outer));
    assert.equal(chain.run_type, "chain");
    assert.deepEqual(chain.outputs, { output: "Hello!" });
    const llm = await readRun(runId(inner), (r) => r.total_tokens === 11);
    assert.equal(llm.parent_run_id, chain.id);
    assert.equal(llm.run_type, "llm");
    assert.deepEqual(llm.outputs.choices[0].message, { role: "assistant", content: "Hello!" });
    assert.ok(Number(llm.total_cost) > 0);
  });

  test("the langsmith SDK's own OTLP exporter rewrites AI SDK spans client-side; they land as native-looking runs", async () => {
    process.env.LANGSMITH_TRACING = "true";
    const { LangSmithOTLPTraceExporter } = await import("langsmith/experimental/otel/exporter");
    const exporter = new LangSmithOTLPTraceExporter({
      url: `${server.url}/otel/v1/traces`,
      headers: { "x-api-key": server.apiKey },
      projectName: "ls-otel-exporter",
    });
    const rec = recorder("vercel-app");
    const span = rec.start("ai.generateText.doGenerate", {
      "ai.operationId": "ai.generateText.doGenerate",
      "ai.model.id": "gpt-4o-mini",
      "ai.model.provider": "openai.chat",
      "ai.telemetry.metadata.ls_run_name": "weather-call",
      "ai.telemetry.metadata.tenant": "acme",
      "ai.prompt.messages": JSON.stringify([{ role: "user", content: [{ type: "text", text: "Weather?" }] }]),
      "ai.response.text": "Sunny.",
      "ai.usage.inputTokens": 40,
      "ai.usage.outputTokens": 2,
    });
    span.end();
    await send(exporter as unknown as SpanExporter, rec.finished());
    const run = await readRun(runId(span), (r) => r.total_tokens === 42);
    assert.equal(run.name, "weather-call");
    assert.equal(run.run_type, "llm");
    assert.equal(run.extra.metadata.tenant, "acme");
    assert.deepEqual(run.inputs.messages, [{ role: "user", content: "Weather?" }]);
    assert.ok(Number(run.total_cost) > 0);
    const project = await call(server, "GET", `/sessions/${run.session_id}`);
    assert.equal(project.body.name, "ls-otel-exporter");
  });

  test("answers per OTLP: partial success for bad spans, 400 for undecodable or non-trace bodies, 415, 401", async () => {
    const good = "1a2b3c4d5e6f7081";
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: "0af7651916cd43dd8448eb211c80319c",
                  spanId: good,
                  name: "ok",
                  startTimeUnixNano: "1763884800000000000",
                  endTimeUnixNano: "1763884801000000000",
                },
                { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "", name: "no id", startTimeUnixNano: "1763884800000000000" },
              ],
            },
          ],
        },
      ],
    };
    const partial = await call(server, "POST", "/otel/v1/traces", gzipSync(JSON.stringify(body)), {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    assert.equal(partial.status, 200);
    assert.equal(partial.body.partialSuccess.rejectedSpans, "1");
    await readRun(`00000000-0000-0000-${good.slice(0, 4)}-${good.slice(4)}`);

    const garbage = await call(server, "POST", "/otel/v1/traces", "{not json", { "content-type": "application/json" });
    assert.equal(garbage.status, 400);
    const logs = await call(server, "POST", "/otel/v1/traces", { resourceLogs: [] });
    assert.equal(logs.status, 400);
    assert.match(logs.body.message, /logs/);
    const protoGarbage = await call(server, "POST", "/otel/v1/traces", new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]), {
      "content-type": "application/x-protobuf",
    });
    assert.equal(protoGarbage.status, 400);
    assert.equal(protoGarbage.headers.get("content-type"), "application/x-protobuf");
    const text = await call(server, "POST", "/otel/v1/traces", "hello", { "content-type": "text/plain" });
    assert.equal(text.status, 415);
    const anonymous = await fetch(`${server.url}/otel/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(anonymous.status, 401);
  });
});
