/**
 * Model connections and the playground's streamed calls against a real local model server: keys
 * never come back, a call streams token by token through our route (SSE) and is recorded as an LLM
 * run with tokens, cost and time to first token; provider failures are answered and recorded.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../server/models/test-server";
import { call } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

interface Event {
  event: string;
  data: any;
  at: number;
}

/** POSTs to the playground and reads its server-sent events as they arrive, with their arrival times. */
async function stream(server: RunningServer, body: unknown): Promise<{ status: number; events: Event[]; json?: any }> {
  const started = Date.now();
  const response = await fetch(`${server.url}/api/v1/playground/stream`, {
    method: "POST",
    headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.headers.get("content-type")?.startsWith("text/event-stream"))
    return { status: response.status, events: [], json: await response.json() };
  const events: Event[] = [];
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
      events.push({ event, data, at: Date.now() - started });
    }
  }
  return { status: response.status, events };
}

describe("model connections and the playground", () => {
  let server: RunningServer;
  let model: TestModelServer;
  let connectionId: string;

  before(async () => {
    model = await startTestModelServer();
    server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1" } });
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  test("a connection's key and header values are never shown; Test makes one tiny call", async () => {
    const created = await call(server, "POST", "/model-connections", {
      name: "local",
      provider: "openai",
      base_url: `${model.url}/v1`,
      api_key: "sk-local-secret",
      default_model: "gpt-4o-mini",
      headers: { "x-org": "acme-secret" },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    connectionId = created.body.id;
    const listed = await call(server, "GET", "/model-connections");
    assert.doesNotMatch(JSON.stringify(listed.body), /sk-local-secret|acme-secret/);
    assert.deepEqual(
      listed.body.map((c: any) => [c.name, c.api_key_set, c.header_names]),
      [["local", true, ["x-org"]]],
    );
    const tested = await call(server, "POST", `/model-connections/${connectionId}/test`);
    assert.equal(tested.body.ok, true, JSON.stringify(tested.body));
    const sent = model.requests.at(-1)!;
    assert.deepEqual(
      [sent.headers.authorization, sent.headers["x-org"], sent.body.max_tokens],
      ["Bearer sk-local-secret", "acme-secret", 1],
    );
    assert.equal(
      (await call(server, "POST", "/model-connections", { name: "local", base_url: `${model.url}/v1`, default_model: "x" })).status,
      409,
    );
    const refused = await call(server, "POST", "/model-connections", { name: "bad", base_url: "file:///etc/passwd", default_model: "x" });
    assert.equal(refused.status, 400);
  });

  test("a call streams token by token and is recorded as an LLM run with tokens, cost and first token", async () => {
    model.chunkDelayMs = 80;
    const { status, events } = await stream(server, {
      connection_id: connectionId,
      request: {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hello streaming world" },
        ],
        temperature: 0.3,
      },
    });
    model.chunkDelayMs = 0;
    assert.equal(status, 200);
    const deltas = events.filter((e) => e.event === "delta");
    assert.equal(deltas.map((e) => e.data.text).join(""), "You said: hello streaming world");
    const done = events.find((e) => e.event === "done")!;
    assert.ok(done, JSON.stringify(events.at(-1)));
    assert.ok(done.at - deltas[0].at >= 250, `the first piece arrived ${done.at - deltas[0].at} ms before the end: streamed, not buffered`);
    assert.deepEqual(done.data.usage, { input_tokens: 5, output_tokens: 5, total_tokens: 10 });
    assert.ok(done.data.first_token_ms >= 0 && done.data.first_token_ms <= done.data.latency_ms);
    assert.ok(done.data.total_cost > 0, "priced from the model's price");

    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const run = await client.readRun(done.data.run_id);
    assert.equal(run.run_type, "llm");
    assert.deepEqual([run.prompt_tokens, run.completion_tokens], [5, 5]);
    assert.ok(run.first_token_time, "time to first token recorded");
    assert.equal((run.extra as any).metadata.ls_model_name, "gpt-4o-mini");
    assert.equal(model.requests.at(-1)!.body.temperature, 0.3);
    const project = await client.readProject({ projectName: "playground" });
    assert.equal(run.session_id, project.id);
  });

  test("a connection's per-minute limit: the call over it is a 429 that says when to come back", async () => {
    const limited = await call(server, "POST", "/model-connections", {
      name: "limited",
      base_url: `${model.url}/v1`,
      default_model: "gpt-4o-mini",
      requests_per_minute: 1,
    });
    assert.equal(limited.body.requests_per_minute, 1);
    const body = { connection_id: limited.body.id, request: { model: "gpt-4o-mini", messages: [{ role: "user", content: "once" }] } };
    assert.equal((await stream(server, body)).status, 200);
    const second = await stream(server, body);
    assert.equal(second.status, 429);
    assert.match(second.json.detail, /allows 1 calls per minute: try again in \d+ s/);
  });

  test("Anthropic connections stream the same way", async () => {
    const created = await call(server, "POST", "/model-connections", {
      name: "claude",
      provider: "anthropic",
      base_url: model.url,
      api_key: "sk-ant",
      default_model: "claude-sonnet-4",
    });
    const { events } = await stream(server, {
      connection_id: created.body.id,
      request: { model: "claude-sonnet-4", messages: [{ role: "user", content: "hi" }] },
    });
    assert.equal(
      events
        .filter((e) => e.event === "delta")
        .map((e) => e.data.text)
        .join(""),
      "You said: hi",
    );
    assert.equal(model.requests.at(-1)!.path, "/v1/messages");
  });

  test("run over a dataset: an experiment on it, examples filling the template, exact match scored", async () => {
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const dataset = await client.createDataset("greetings");
    await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ question: "hi" }, { question: "hello" }, { question: "hey" }],
      outputs: [{ answer: "You said: hi" }, { answer: "You said: hello" }, { answer: "something else" }],
    });
    const response = await fetch(`${server.url}/api/v1/playground/experiments`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        connection_id: connectionId,
        request: { model: "gpt-4o-mini", messages: [{ role: "user", content: "{question}" }] },
        dataset_id: dataset.id,
        experiment_name: "from-playground",
        evaluators: ["exact_match"],
      }),
    });
    const text = await response.text();
    const progress = [...text.matchAll(/event: progress\ndata: (.*)/g)].map((m) => JSON.parse(m[1]).done);
    assert.deepEqual(progress, [1, 2, 3]);
    const done = JSON.parse(/event: done\ndata: (.*)/.exec(text)![1]);
    assert.deepEqual([done.runs, done.failed, done.experiment_name], [3, 0, "from-playground"]);
    const experiments = [];
    for await (const p of client.listProjects({ referenceDatasetId: dataset.id, includeStats: true })) experiments.push(p);
    assert.equal(experiments.length, 1);
    assert.equal(experiments[0].run_count, 3);
    assert.ok(Math.abs((experiments[0].feedback_stats as any).exact_match.avg - 2 / 3) < 1e-9);
    assert.ok((experiments[0].total_tokens ?? 0) > 0, "the LLM calls' tokens roll up to the experiment");
    const empty = await client.createDataset("empty");
    const refused = await call(server, "POST", "/playground/experiments", {
      request: { model: "m", messages: [{ role: "user", content: "x" }] },
      dataset_id: empty.id,
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /no examples/);
  });

  test("a provider's 429 is answered as an error and recorded; no connection, bad input and viewers are 4xx", async () => {
    model.failNext(429, { retryAfter: 3 });
    const { events } = await stream(server, {
      connection_id: connectionId,
      request: { model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }] },
    });
    const error = events.find((e) => e.event === "error")!;
    assert.match(error.data.error, /HTTP 429/);
    const failed = await call(server, "GET", `/runs/${error.data.run_id}`);
    assert.match(failed.body.error, /HTTP 429/);

    const empty = await stream(server, { request: { model: "m", messages: [] } });
    assert.equal(empty.status, 400);
    assert.match(empty.json.detail, /messages/);
    const unknown = await stream(server, {
      connection_id: "00000000-0000-4000-8000-000000000000",
      request: { model: "m", messages: [{ role: "user", content: "x" }] },
    });
    assert.equal(unknown.status, 404);

    const key = await call(server, "POST", "/api-key", { kind: "service", role: "viewer", description: "viewer" });
    const viewer = await call({ url: server.url, apiKey: key.body.key }, "POST", "/playground/stream", {
      request: { model: "m", messages: [{ role: "user", content: "x" }] },
    });
    assert.equal(viewer.status, 403);
  });
});
