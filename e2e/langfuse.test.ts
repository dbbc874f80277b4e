import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "langsmith";
import { Langfuse } from "langfuse";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const basic = (publicKey: string, secretKey: string) => `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`;

describe("Langfuse ingestion with the real langfuse SDK (v3)", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  /** A Langfuse client pointed at Tracelight, failing the test on any error the SDK reports. */
  function langfuse(publicKey: string) {
    const problems: unknown[] = [];
    const sdk = new Langfuse({ publicKey, secretKey: server.apiKey, baseUrl: server.url, flushAt: 1000, fetchRetryCount: 0 });
    sdk.on("error", (e) => problems.push(e));
    sdk.on("warning", (e) => problems.push(e));
    return { sdk, problems };
  }

  test("trace, span, generation with usage, event and scores land as a LangSmith trace with tokens and feedback", async () => {
    const { sdk, problems } = langfuse("pk-lf-e2e");
    const trace = sdk.trace({ name: "support-chat", userId: "user-1", sessionId: "conv-9", input: { question: "refund?" }, tags: ["e2e"] });
    const span = trace.span({ name: "retrieval", input: { query: "refund policy" } });
    span.event({ name: "cache-miss", metadata: { key: "refund" } });
    const start = new Date();
    const generation = span.generation({
      name: "answer",
      model: "gpt-4o-mini",
      modelParameters: { temperature: 0 },
      input: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Can I get a refund?" },
      ],
      startTime: start,
      completionStartTime: new Date(start.getTime() + 120),
    });
    generation.end({
      output: { role: "assistant", content: "Yes, within 30 days." },
      usageDetails: { input: 40, output: 12 },
      costDetails: { input: 0.0004, output: 0.0006 },
    });
    span.end({ output: { documents: 3 } });
    trace.update({ output: { answer: "Yes, within 30 days." } });
    trace.score({ name: "helpfulness", value: 0.8, comment: "clear" });
    sdk.score({ traceId: trace.id, observationId: generation.id, name: "correct", value: 1, dataType: "BOOLEAN" });
    await sdk.flushAsync();
    assert.deepEqual(problems, []);

    const root = await eventually(async () => {
      const run = await client.readRun(trace.id, { loadChildRuns: true }).catch(() => null);
      return run?.child_runs?.[0]?.child_runs?.length === 2 ? run : null;
    });
    assert.equal(root.name, "support-chat");
    assert.deepEqual(root.outputs, { answer: "Yes, within 30 days." });
    assert.equal(root.extra?.metadata?.user_id, "user-1");
    assert.equal(root.extra?.metadata?.session_id, "conv-9");
    const retrieval = root.child_runs![0];
    assert.equal(retrieval.id, span.id);
    assert.equal(retrieval.run_type, "chain");
    const children = new Map(retrieval.child_runs!.map((r) => [r.name, r]));
    const answer = children.get("answer")!;
    assert.equal(answer.id, generation.id);
    assert.equal(answer.run_type, "llm");
    assert.equal(answer.trace_id, trace.id);
    const llm = answer as typeof answer & {
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
      total_cost: number | string;
    };
    assert.equal(llm.prompt_tokens, 40);
    assert.equal(llm.completion_tokens, 12);
    assert.equal(llm.total_tokens, 52);
    assert.equal(Number(llm.total_cost), 0.001);
    assert.ok(children.get("cache-miss"), "the event is a run of the span");

    const projectRuns = [];
    for await (const run of client.listRuns({ projectName: "pk-lf-e2e", isRoot: true })) projectRuns.push(run.id);
    assert.deepEqual(projectRuns, [trace.id], "the public key names the project");

    const feedback = await eventually(async () => {
      const list = [];
      for await (const f of client.listFeedback({ runIds: [trace.id, generation.id] })) list.push(f);
      return list.length === 2 ? list : null;
    });
    const byKey = new Map(feedback.map((f) => [f.key, f]));
    assert.equal(byKey.get("helpfulness")?.score, 0.8);
    assert.equal(byKey.get("helpfulness")?.comment, "clear");
    assert.equal(byKey.get("correct")?.score, 1);
    assert.equal(byKey.get("correct")?.run_id, generation.id);

    // Read back through the SDK's own reads.
    const { data: read } = await sdk.fetchTrace(trace.id);
    assert.equal(read.id, trace.id);
    assert.equal(read.userId, "user-1");
    assert.deepEqual(read.output, { answer: "Yes, within 30 days." });
    const readGeneration = read.observations.find((o) => o.id === generation.id)!;
    assert.equal(readGeneration.type, "GENERATION");
    assert.equal(readGeneration.parentObservationId, span.id);
    assert.equal(readGeneration.usage?.total, 52);
    assert.deepEqual(read.scores.map((s) => s.name).sort(), ["correct", "helpfulness"]);
    const { data: observation } = await sdk.fetchObservation(span.id);
    assert.equal(observation.name, "retrieval");
    assert.deepEqual(observation.output, { documents: 3 });
    const scores = await sdk.api.scoreV2Get({ name: "helpfulness", limit: 10 });
    assert.equal(scores.meta.totalItems, 1);
    assert.equal(scores.data[0].traceId, trace.id);
    assert.equal((await sdk.api.healthHealth()).status, "OK");
  });

  test("the ingestion endpoint answers per event (207), refuses a wrong secret key, and /api/public answers JSON", async () => {
    const ok = { id: "e-ok", type: "trace-create", timestamp: new Date().toISOString(), body: { id: "custom-trace-id", name: "custom" } };
    const bad = { id: "e-bad", type: "no-such-event", timestamp: new Date().toISOString(), body: {} };
    const answer = await call(
      server,
      "POST",
      "/api/public/ingestion",
      { batch: [ok, bad] },
      { "x-api-key": "", authorization: basic("pk-raw", server.apiKey) },
    );
    assert.equal(answer.status, 207);
    assert.deepEqual(answer.body.successes, [{ id: "e-ok", status: 201 }]);
    assert.equal(answer.body.errors[0].id, "e-bad");
    assert.equal(answer.body.errors[0].status, 400);
    const runs = [];
    for await (const run of client.listRuns({ projectName: "pk-raw" })) runs.push(run);
    assert.equal(runs.length, 1);
    assert.equal(runs[0].extra?.metadata?.langfuse_trace_id, "custom-trace-id", "a non-UUID id is kept beside its derived run id");

    const refused = await call(
      server,
      "POST",
      "/api/public/ingestion",
      { batch: [ok] },
      { "x-api-key": "", authorization: basic("pk-raw", "wrong") },
    );
    assert.equal(refused.status, 401);
    assert.match(refused.body.detail, /API key/);

    const health = await call(server, "GET", "/api/public/health", undefined, { "x-api-key": "" });
    assert.equal(health.status, 200);
    assert.equal(health.body.status, "OK");
    assert.equal(typeof health.body.version, "string");

    const missing = await call(server, "GET", "/api/public/no-such-thing");
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /no API route/);
  });
});
