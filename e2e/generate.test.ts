import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { startFakeOpenAI } from "../server/generate/fake-openai";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("generation and workspace model prices against the built server", () => {
  let server: RunningServer;
  let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
  before(async () => {
    fake = await startFakeOpenAI();
    server = await startServer({
      env: { GENERATION_BASE_URL: fake.url, GENERATION_API_KEY: "deploy-key", GENERATION_MODEL: "e2e-model", ALLOW_PRIVATE_EGRESS: "1" },
    });
  });
  after(async () => {
    await server?.stop();
    await fake?.close();
  });

  test("POST /generate drafts a prompt, an evaluator and examples through the configured endpoint", async () => {
    const prompt = await call(server, "POST", "/generate", {
      kind: "prompt",
      description: "answer questions",
      input_variables: ["question"],
    });
    assert.equal(prompt.status, 200, JSON.stringify(prompt.body));
    assert.equal(prompt.body.model, "e2e-model");
    assert.deepEqual(prompt.body.input_variables, ["topic", "question"]);
    assert.deepEqual(prompt.body.manifest.id, ["langchain", "prompts", "chat", "ChatPromptTemplate"]);
    assert.equal(fake.seen.at(-1)!.authorization, "Bearer deploy-key");
    assert.deepEqual(fake.seen.at(-1)!.body.response_format, { type: "json_object" });

    const evaluator = await call(server, "POST", "/api/v1/generate", { kind: "evaluator", description: "correctness" });
    assert.equal(evaluator.status, 200);
    assert.equal(evaluator.body.output_schema.properties.correct.type, "boolean");

    const examples = await call(server, "POST", "/generate", { kind: "examples", description: "sums", count: 3 });
    assert.equal(examples.status, 200);
    assert.equal(examples.body.examples.length, 3);
  });

  test("bad input is a 400 naming the field; bad model output a 502 saying why", async () => {
    const kind = await call(server, "POST", "/generate", { kind: "poem", description: "x" });
    assert.equal(kind.status, 400);
    assert.match(kind.body.detail, /kind/);
    const count = await call(server, "POST", "/generate", { kind: "examples", description: "x", count: 0 });
    assert.equal(count.status, 400);
    assert.match(count.body.detail, /count/);
    const broken = await call(server, "POST", "/generate", { kind: "prompt", description: "NOT_JSON" });
    assert.equal(broken.status, 502);
    assert.match(broken.body.detail, /not valid JSON/);
    const shape = await call(server, "POST", "/generate", { kind: "evaluator", description: "WRONG_SHAPE" });
    assert.equal(shape.status, 502);
    assert.match(shape.body.detail, /not a valid evaluator/);
    const upstream = await call(server, "POST", "/generate", { kind: "prompt", description: "UPSTREAM_500" });
    assert.equal(upstream.status, 502);
    assert.match(upstream.body.detail, /HTTP 500/);
    assert.equal((await call({ url: server.url, apiKey: "nope" }, "POST", "/generate", { kind: "prompt", description: "x" })).status, 401);
  });

  test("PUT /generate/config: the workspace's own endpoint and key (never returned) are used", async () => {
    const put = await call(server, "PUT", "/generate/config", { base_url: fake.url, api_key: "ws-key", model: "ws-model" });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.source, "workspace");
    assert.equal(put.body.api_key_set, true);
    assert.doesNotMatch(JSON.stringify(put.body), /ws-key/);
    const got = await call(server, "GET", "/generate/config");
    assert.deepEqual(got.body, put.body);
    const out = await call(server, "POST", "/generate", { kind: "examples", description: "x", count: 1 });
    assert.equal(out.body.model, "ws-model");
    assert.equal(fake.seen.at(-1)!.authorization, "Bearer ws-key");
    assert.equal((await call(server, "PUT", "/generate/config", { base_url: "not a url" })).status, 400);
    const cleared = await call(server, "PUT", "/generate/config", { base_url: null, model: null, api_key: null });
    assert.equal(cleared.body.source, "deployment");
  });

  test("model prices: CRUD over HTTP; a custom price prices new runs sent by the langsmith client", async () => {
    const bad = await call(server, "POST", "/model-prices", { name: "x", match_pattern: "^(a+)+$", prices: { input: 1 } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /match_pattern/);
    const negative = await call(server, "POST", "/model-prices", { name: "x", match_pattern: "^x$", prices: { input: -1 } });
    assert.equal(negative.status, 400);
    assert.match(negative.body.detail, /prices\.input/);

    const created = await call(server, "POST", "/model-prices", {
      name: "house mini",
      match_pattern: "^gpt-4o-mini$",
      provider: "openai",
      prices: { input: 100, output: 100 },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const list = await call(server, "GET", "/model-prices");
    assert.equal(list.body[0].id, created.body.id);
    assert.ok(list.body.some((p: { source: string }) => p.source === "shipped"));

    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const root = new RunTree({ name: "agent", run_type: "chain", inputs: { q: "x" }, client, project_name: "e2e-prices" });
    await root.postRun();
    const llm = root.createChild({
      name: "ChatOpenAI",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "hi" }] },
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    });
    await llm.postRun();
    await llm.end({
      choices: [{ message: { role: "assistant", content: "hello" } }],
      usage_metadata: { input_tokens: 10_000, output_tokens: 1_000, total_tokens: 11_000 },
    });
    await llm.patchRun();
    await root.end({ a: 1 });
    await root.patchRun();
    await client.awaitPendingTraceBatches();
    const run = await eventually(async () => {
      const r = await call(server, "GET", `/runs/${llm.id}`);
      return r.status === 200 && r.body.status === "success" ? r.body : null;
    });
    assert.equal(Number(run.prompt_cost), 1);
    assert.equal(Number(run.completion_cost), 0.1);
    assert.equal(Number(run.total_cost), 1.1);

    const patched = await call(server, "PATCH", `/model-prices/${created.body.id}`, { prices: { input: 1, output: 1 } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.prices, { input: 1, output: 1 });
    assert.equal((await call(server, "DELETE", `/model-prices/${created.body.id}`)).status, 200);
    assert.equal((await call(server, "DELETE", `/model-prices/${created.body.id}`)).status, 404);
    assert.equal((await call(server, "PATCH", `/model-prices/${randomUUID()}`, { name: "x" })).status, 404);
  });
});
