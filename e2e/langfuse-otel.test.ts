import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { context, trace, type Span as ApiSpan } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BatchSpanProcessor, StackContextManager, TracerProvider } from "@opentelemetry/sdk-trace";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import { propagateAttributes, setLangfuseTracerProvider, startObservation } from "@langfuse/tracing";
import { Client } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

/** The run id of a span: its id padded into a UUID, as the OTel mapping (and the langsmith SDK) derive it. */
const runId = (spanId: string) => `00000000-0000-0000-${spanId.slice(0, 4)}-${spanId.slice(4)}`;
const basic = (publicKey: string, secretKey: string) => `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`;

type Run = Record<string, any>;

describe("Langfuse OpenTelemetry export (POST /api/public/otel/v1/traces)", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    // propagateAttributes hands trace attributes to the spans started in its callback through the active context.
    context.setGlobalContextManager(new StackContextManager().enable());
  });
  after(async () => {
    context.disable();
    await server?.stop();
  });

  const readTrace = (id: string, ready: (run: Run) => boolean) =>
    eventually(async () => {
      const run = (await client.readRun(id, { loadChildRuns: true }).catch(() => null)) as Run | null;
      return run && ready(run) ? run : null;
    });

  async function threadsOf(projectName: string): Promise<Map<string, number>> {
    const project = await client.readProject({ projectName });
    const threads = new Map<string, number>();
    for await (const t of client.listGroupRuns({ projectId: project.id, groupBy: "conversation" })) {
      const thread = t as unknown as { thread_id: string; count: number };
      threads.set(thread.thread_id, thread.count);
    }
    return threads;
  }

  test("the real @langfuse/otel + @langfuse/tracing: span, generation with usage and cost, event, nesting, error level", async () => {
    const processor = new LangfuseSpanProcessor({
      publicKey: "pk-lf-otel-js",
      secretKey: server.apiKey,
      baseUrl: server.url,
      environment: "e2e",
      release: "r-42",
    });
    const provider = new TracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);

    const root = propagateAttributes(
      { userId: "user-otel", sessionId: "thread-otel", tags: ["otel-e2e"], traceName: "otel-support", metadata: { tenant: "acme" } },
      () => startObservation("otel-support", { input: { question: "refund?" } }),
    );
    const retrieval = root.startObservation("retrieval", { input: { query: "refund policy" } });
    retrieval.startObservation("cache-miss", { metadata: { key: "refund" } }, { asType: "event" });
    retrieval.update({ output: { documents: 3 } }).end();
    const start = new Date();
    const generation = startObservation(
      "answer",
      {
        model: "gpt-4o-mini",
        modelParameters: { temperature: 0 },
        input: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Can I get a refund?" },
        ],
        completionStartTime: new Date(start.getTime() + 120),
      },
      { asType: "generation", startTime: start, parentSpanContext: root.otelSpan.spanContext() },
    );
    generation
      .update({
        output: { role: "assistant", content: "Yes, within 30 days." },
        usageDetails: { input: 40, output: 12 },
        costDetails: { input: 0.0004, output: 0.0006 },
      })
      .end(new Date(start.getTime() + 600));
    const tool = root.startObservation("crm-lookup", { input: { customer: "c-1" } }, { asType: "tool" });
    tool.update({ level: "ERROR", statusMessage: "CRM timed out" }).end();
    root.update({ output: { answer: "Yes, within 30 days." } }).end();
    await provider.forceFlush();
    await provider.shutdown();

    const run = await readTrace(
      runId(root.id),
      (r) => r.child_runs?.length === 3 && r.child_runs.some((c: Run) => c.child_runs?.length === 1),
    );
    assert.equal(run.name, "otel-support");
    assert.equal(run.run_type, "chain");
    assert.deepEqual(run.inputs, { question: "refund?" });
    assert.deepEqual(run.outputs, { answer: "Yes, within 30 days." });
    assert.deepEqual(run.tags, ["otel-e2e"]);
    const meta = run.extra.metadata;
    assert.equal(meta.user_id, "user-otel");
    assert.equal(meta.session_id, "thread-otel");
    assert.equal(meta.tenant, "acme");
    assert.equal(meta.environment, "e2e");
    assert.equal(meta.release, "r-42");

    const children = new Map<string, Run>(run.child_runs.map((c: Run) => [c.name, c]));
    const answer = children.get("answer")!;
    assert.equal(answer.run_type, "llm");
    assert.equal(answer.trace_id, run.id);
    assert.deepEqual(answer.inputs.messages[1], { role: "user", content: "Can I get a refund?" });
    assert.deepEqual(answer.outputs.choices[0].message, { role: "assistant", content: "Yes, within 30 days." });
    assert.equal(answer.extra.metadata.ls_model_name, "gpt-4o-mini");
    assert.deepEqual(answer.extra.invocation_params, { temperature: 0 });
    assert.equal(answer.prompt_tokens, 40);
    assert.equal(answer.completion_tokens, 12);
    assert.equal(answer.total_tokens, 52);
    assert.equal(Number(answer.total_cost), 0.001, "cost details win over the price table");
    assert.equal(Date.parse(answer.first_token_time) - Date.parse(answer.start_time), 120);

    const retrievalRun = children.get("retrieval")!;
    assert.equal(retrievalRun.run_type, "chain");
    assert.deepEqual(retrievalRun.outputs, { documents: 3 });
    const event = retrievalRun.child_runs[0];
    assert.equal(event.name, "cache-miss");
    assert.equal(event.extra.metadata.key, "refund");
    assert.equal(event.end_time, event.start_time, "an event is a point in time");

    const failed = children.get("crm-lookup")!;
    assert.equal(failed.run_type, "tool");
    assert.equal(failed.error, "CRM timed out");
    assert.equal(failed.status, "error");

    const projectRoots = [];
    for await (const r of client.listRuns({ projectName: "pk-lf-otel-js", isRoot: true })) projectRoots.push(r.id);
    assert.deepEqual(projectRoots, [run.id], "the public key names the project");
    assert.equal((await threadsOf("pk-lf-otel-js")).get("thread-otel"), 1, "the session is the thread");
  });

  test("the Python SDK v3's attribute shape (JSON strings, flattened metadata) through the OTel JS SDK's protobuf exporter", async () => {
    const exporter = new OTLPTraceExporter({
      url: `${server.url}/api/public/otel/v1/traces`,
      headers: { Authorization: basic("pk-lf-python", server.apiKey), "x-langfuse-sdk-name": "python" },
    });
    const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
    // The Python SDK's tracer name and its attributes, as langfuse/_client/attributes.py builds them.
    const tracer = provider.getTracer("langfuse-sdk", "3.3.0");
    const child = (parent: ApiSpan) => trace.setSpan(context.active(), parent);
    const t0 = Date.now();
    const root = tracer.startSpan("rag-pipeline", {
      startTime: t0,
      attributes: {
        "langfuse.observation.type": "span",
        "langfuse.trace.name": "py-rag",
        "user.id": "py-user",
        "session.id": "py-thread",
        "langfuse.trace.tags": ["python", "rag"],
        "langfuse.trace.input": JSON.stringify({ question: "What is OTel?" }),
        "langfuse.trace.metadata.attempt": 2,
        "langfuse.trace.metadata.source": "cli",
        "langfuse.release": "2025.06",
        "langfuse.version": "v7",
        "langfuse.environment": "production",
        "langfuse.observation.input": JSON.stringify({ question: "What is OTel?" }),
      },
    });
    const generation = tracer.startSpan(
      "llm-call",
      {
        startTime: t0 + 10,
        attributes: {
          "langfuse.observation.type": "generation",
          "langfuse.observation.model.name": "claude-3-5-sonnet-20241022",
          "langfuse.observation.model.parameters": JSON.stringify({ max_tokens: 256, temperature: 0.1 }),
          "langfuse.observation.input": JSON.stringify([{ role: "user", content: "What is OTel?" }]),
          "langfuse.observation.output": JSON.stringify("OpenTelemetry is an observability framework."),
          "langfuse.observation.usage_details": JSON.stringify({ input: 100, output: 20, cache_read_input_tokens: 30 }),
          "langfuse.observation.cost_details": JSON.stringify({ total: 0.25 }),
          "langfuse.observation.completion_start_time": JSON.stringify(new Date(t0 + 60).toISOString().replace("Z", "+00:00")),
          "langfuse.observation.prompt.name": "rag-answer",
          "langfuse.observation.prompt.version": 4,
          "langfuse.observation.metadata.retrieved": JSON.stringify(["doc-1", "doc-2"]),
        },
      },
      child(root),
    );
    generation.end(t0 + 400);
    const guard = tracer.startSpan(
      "guardrail",
      {
        startTime: t0 + 410,
        attributes: {
          "langfuse.observation.type": "guardrail",
          "langfuse.observation.level": "ERROR",
          "langfuse.observation.status_message": "PII detected in the answer",
        },
      },
      child(root),
    );
    guard.end(t0 + 420);
    root.setAttribute("langfuse.trace.output", JSON.stringify({ answer: "OpenTelemetry is an observability framework." }));
    root.end(t0 + 500);
    await provider.forceFlush();
    await provider.shutdown();

    const run = await readTrace(runId(root.spanContext().spanId), (r) => r.child_runs?.length === 2);
    assert.equal(run.name, "py-rag");
    assert.deepEqual(run.inputs, { question: "What is OTel?" });
    assert.deepEqual(run.outputs, { answer: "OpenTelemetry is an observability framework." });
    assert.deepEqual(run.tags, ["python", "rag"]);
    const meta = run.extra.metadata;
    assert.equal(meta.user_id, "py-user");
    assert.equal(meta.session_id, "py-thread");
    assert.equal(meta.attempt, 2);
    assert.equal(meta.source, "cli");
    assert.equal(meta.release, "2025.06");
    assert.equal(meta.version, "v7");
    assert.equal(meta.otel_scope, "langfuse-sdk");

    const children = new Map<string, Run>(run.child_runs.map((c: Run) => [c.name, c]));
    const llm = children.get("llm-call")!;
    assert.equal(llm.run_type, "llm");
    assert.deepEqual(llm.outputs.choices[0].message, { role: "assistant", content: "OpenTelemetry is an observability framework." });
    assert.deepEqual(llm.extra.invocation_params, { max_tokens: 256, temperature: 0.1 });
    assert.equal(llm.prompt_tokens, 130, "Langfuse's usage details are additive: cache reads are prompt tokens too");
    assert.equal(llm.completion_tokens, 20);
    assert.equal(Number(llm.total_cost), 0.25);
    assert.equal(llm.extra.metadata.prompt_name, "rag-answer");
    assert.equal(llm.extra.metadata.prompt_version, 4);
    assert.deepEqual(llm.extra.metadata.retrieved, ["doc-1", "doc-2"]);
    assert.equal(Date.parse(llm.first_token_time) - Date.parse(llm.start_time), 50);
    const guardRun = children.get("guardrail")!;
    assert.equal(guardRun.run_type, "chain");
    assert.equal(guardRun.error, "PII detected in the answer");
    assert.equal((await threadsOf("pk-lf-python")).get("py-thread"), 1);
  });

  test("the endpoint asks for Basic credentials, refuses a wrong secret key and a viewer key", async () => {
    const body = JSON.stringify({ resourceSpans: [] });
    const post = (authorization?: string) =>
      call(server, "POST", "/api/public/otel/v1/traces", body, {
        "x-api-key": "",
        "content-type": "application/json",
        ...(authorization ? { authorization } : {}),
      });
    assert.equal((await post()).status, 401);
    assert.equal((await post(basic("pk", "sk-not-a-key"))).status, 401);
    const key = await call(server, "POST", "/api-key", { kind: "service", role: "viewer", description: "viewer" });
    assert.equal((await post(basic("pk", key.body.key as string))).status, 403);
    assert.equal((await post(basic("pk", server.apiKey))).status, 200);
  });
});
