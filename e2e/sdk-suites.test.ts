import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, eventually, rawRequest } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

/**
 * What the langsmith SDKs' own integration suites expect of a server (issue 36), through the real
 * npm client where it makes the call, and as the Python client sends it where only that one does.
 */
describe("what the SDKs' own test suites expect", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  const png = (n: number) => Buffer.from([0x89, 0x50, 0x4e, 0x47, n]);
  const attachmentNames = async (id: string) => Object.keys((await client.readExample(id)).attachments ?? {}).sort();
  const status = (code: number, text?: RegExp) => (e: Error & { status?: number }) =>
    (e.status === code || e.message.includes(String(code))) && (!text || text.test(e.message));

  test("a key sent twice (X-API-Key and x-api-key, as the Python client does) is that key; two different keys are a 401", async () => {
    const key = server.apiKey;
    const twice = await rawRequest(server.url, "GET", "/sessions?limit=1", [`X-API-Key: ${key}`, `x-api-key: ${key}`]);
    assert.equal(twice.status, 200, twice.text);
    const tenantTwice = await rawRequest(server.url, "GET", "/api/v1/sessions?limit=1", [
      `X-API-Key: ${key}`,
      `x-api-key: ${key}`,
      `X-Tenant-Id: ${server.workspaceId}`,
      `x-tenant-id: ${server.workspaceId}`,
    ]);
    assert.equal(tenantTwice.status, 200, tenantTwice.text);
    const otlp = await rawRequest(
      server.url,
      "POST",
      "/otel/v1/traces",
      [`X-API-Key: ${key}`, `x-api-key: ${key}`, "Content-Type: application/json"],
      JSON.stringify({ resourceSpans: [] }),
    );
    assert.ok(otlp.status >= 200 && otlp.status < 300, otlp.text);

    const different = await rawRequest(server.url, "GET", "/sessions?limit=1", [`X-API-Key: ${key}`, `x-api-key: ${key}x`]);
    assert.equal(different.status, 401, different.text);
    assert.match(different.text, /x-api-key header was sent 2 times with different values/);
    const otherTenant = await rawRequest(server.url, "GET", "/sessions?limit=1", [
      `x-api-key: ${key}`,
      `X-Tenant-Id: ${server.workspaceId}`,
      `x-tenant-id: ${randomUUID()}`,
    ]);
    assert.equal(otherTenant.status, 401, otherTenant.text);
  });

  test("a multipart update with new attachments and no attachments_operations keeps only the new ones", async () => {
    const dataset = await client.createDataset(unique("sdk-attach"));
    const id = randomUUID();
    await client.uploadExamplesMultipart(dataset.id, [
      { id, inputs: { q: "x" }, attachments: { test_file: ["image/png", png(1)], foo: ["image/png", png(2)] } },
    ]);
    await client.updateExamplesMultipart(dataset.id, [{ id, metadata: { kept: true } }]);
    assert.deepEqual(await attachmentNames(id), ["foo", "test_file"], "an update uploading nothing keeps them all");
    await client.updateExamplesMultipart(dataset.id, [{ id, attachments: { test_file2: ["image/png", png(3)] } }]);
    const updated = await client.readExample(id);
    assert.deepEqual(Object.keys(updated.attachments ?? {}), ["test_file2"]);
    const bytes = Buffer.from(await (await fetch(updated.attachments!.test_file2.presigned_url)).arrayBuffer());
    assert.deepEqual(bytes, png(3));
  });

  test("attachments_operations that would lose or duplicate an attachment are a 400 naming the conflict", async () => {
    const dataset = await client.createDataset(unique("sdk-ops"));
    const id = randomUUID();
    await client.uploadExamplesMultipart(dataset.id, [
      { id, inputs: { q: "x" }, attachments: { test_file: ["image/png", png(1)], foo: ["image/png", png(2)] } },
    ]);
    const update = (ops: { retain?: string[]; rename?: Record<string, string> }) =>
      client.updateExamplesMultipart(dataset.id, [{ id, inputs: { q: "y" }, attachments_operations: ops }]);
    await assert.rejects(update({ retain: ["test_file"], rename: { foo: "test_file" } }), status(400, /test_file\W+ would hold both/));
    await assert.rejects(update({ retain: ["test_file"], rename: { test_file: "test_file2" } }), status(400, /both retained and renamed/));
    await assert.rejects(update({ rename: { test_file: "same", foo: "same" } }), status(400, /same\W+ would hold both/));
    assert.deepEqual(await attachmentNames(id), ["foo", "test_file"], "a refused update changes nothing");
    assert.equal((await client.readExample(id)).inputs.q, "x");

    await update({ retain: ["test_file"], rename: { foo: "bar" } });
    assert.deepEqual(await attachmentNames(id), ["bar", "test_file"]);
  });

  test("usage_metadata's details keep every key as sent and come back under the Python client's default select", async () => {
    const project = unique("sdk-usage");
    const usage = {
      input_tokens: 10,
      output_tokens: 20,
      total_tokens: 30,
      input_cost: 1e-6,
      output_cost: 2e-6,
      total_cost: 3e-6,
      input_token_details: { audio: 1, foo: 2 },
      output_token_details: { reasoning: 3, foo: 4 },
      input_cost_details: { audio: 1e-7, foo: 2e-7 },
      output_cost_details: { reasoning: 3e-7, foo: 4e-7 },
    };
    const run = new RunTree({
      name: "llm",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "hi" }] },
      extra: { metadata: { ls_provider: "openai", ls_model_name: "gpt-4.1-mini" } },
      client,
      project_name: project,
    });
    await run.postRun();
    await run.end({ messages: [{ role: "assistant", content: "ih" }], usage_metadata: usage });
    await run.patchRun();
    await client.awaitPendingTraceBatches();

    const expected = {
      prompt_token_details: { audio: 1, foo: 2 },
      completion_token_details: { reasoning: 3, foo: 4 },
      prompt_cost_details: { audio: 1e-7, foo: 2e-7 },
      completion_cost_details: { reasoning: 3e-7, foo: 4e-7 },
    };
    const whole = await eventually(async () => {
      const r = (await client.readRun(run.id).catch(() => null)) as Record<string, unknown> | null;
      return r?.end_time ? r : null;
    });
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(whole[key], value, key);
    // The Python client's default select (client.py list_runs) names the totals, not the breakdowns.
    const select = ["completion_cost", "completion_tokens", "end_time", "id", "prompt_cost", "prompt_tokens", "total_cost", "total_tokens"];
    const listed: Record<string, unknown>[] = [];
    for await (const r of client.listRuns({ projectName: project, select })) listed.push(r as never);
    assert.equal(listed.length, 1);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(listed[0][key], value, `${key} under select`);
    assert.equal(listed[0].prompt_cost, 1e-6);
  });

  test("a dataset's inputs and outputs schemas are enforced on every example write, naming the path", async () => {
    const inputsSchema = { type: "object", properties: { input: { type: "string" } }, required: ["input"], title: "InputSchema" };
    const outputsSchema = { type: "object", properties: { output: { type: "string" } }, required: ["output"] };
    const dataset = await client.createDataset(unique("sdk-schema"), { inputsSchema, outputsSchema });
    const good = await client.createExample({ dataset_id: dataset.id, inputs: { input: "hello" }, outputs: { output: "hi" } });
    const refused = status(400, /does not match the dataset's/);

    // The JS client: multipart create (one and several) and update.
    await assert.rejects(
      client.createExample({ dataset_id: dataset.id, inputs: { john: 1 }, outputs: { output: "hi" } }),
      status(400, /inputs\.input is required/),
    );
    await assert.rejects(
      client.createExample({ dataset_id: dataset.id, inputs: { input: "x" }, outputs: { output: 1 } }),
      status(400, /outputs\.output must be string/),
    );
    await assert.rejects(
      client.createExamples([
        { dataset_id: dataset.id, inputs: { input: "fine" } },
        { dataset_id: dataset.id, inputs: { input: 2 } },
      ]),
      refused,
    );
    await assert.rejects(
      client.updateExample({ id: good.id, dataset_id: dataset.id, inputs: { input: ["no"] } }),
      status(400, /inputs\.input/),
    );

    // The Python client's JSON endpoints (used when multipart examples are off).
    const one = await call(server, "POST", "/examples", { dataset_id: dataset.id, inputs: { input: 3 } });
    assert.equal(one.status, 400, JSON.stringify(one.body));
    assert.match(one.body.detail, /inputs\.input must be string/);
    const bulk = await call(server, "POST", "/examples/bulk", [
      { dataset_id: dataset.id, inputs: { input: "ok" }, outputs: { output: "ok" } },
      { dataset_id: dataset.id, inputs: { input: "ok" }, outputs: { wrong: "x" } },
    ]);
    assert.equal(bulk.status, 400, JSON.stringify(bulk.body));
    assert.match(bulk.body.detail, /outputs\.output is required/);
    const patched = await call(server, "PATCH", `/examples/${good.id}`, { outputs: { output: false } });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    const bulkPatch = await call(server, "PATCH", "/examples/bulk", [{ id: good.id, dataset_id: dataset.id, inputs: {} }]);
    assert.equal(bulkPatch.status, 400, JSON.stringify(bulkPatch.body));

    const examples = [];
    for await (const e of client.listExamples({ datasetId: dataset.id })) examples.push(e);
    assert.deepEqual(
      examples.map((e) => [e.inputs, e.outputs]),
      [[{ input: "hello" }, { output: "hi" }]],
      "nothing refused was stored, in part or whole",
    );
    await client.updateExample({ id: good.id, dataset_id: dataset.id, inputs: { input: "changed" } });
    assert.equal((await client.readExample(good.id)).inputs.input, "changed");

    const badSchema = await call(server, "POST", "/datasets", {
      name: unique("sdk-bad-schema"),
      inputs_schema_definition: { type: "nonsense" },
    });
    assert.equal(badSchema.status, 400, JSON.stringify(badSchema.body));
    assert.match(badSchema.body.detail, /inputs_schema_definition is not a valid JSON Schema/);
  });

  test("a CSV upload with schemas refuses a row that does not match, and stores nothing", async () => {
    const upload = (name: string, csv: string) => {
      const { body, contentType } = multipartBody([
        { name: "file", bytes: Buffer.from(csv), contentType: "text/csv" },
        { name: "name", bytes: Buffer.from(name) },
        { name: "input_keys", bytes: Buffer.from("q") },
        { name: "output_keys", bytes: Buffer.from("n") },
        { name: "inputs_schema_definition", bytes: Buffer.from(JSON.stringify({ type: "object", properties: { q: { maxLength: 5 } } })) },
        {
          name: "outputs_schema_definition",
          bytes: Buffer.from(JSON.stringify({ type: "object", properties: { n: { pattern: "^[0-9]+$" } } })),
        },
      ]);
      return call(server, "POST", "/datasets/upload", body, { "content-type": contentType });
    };
    const name = unique("sdk-csv");
    const bad = await upload(name, "q,n\nshort,1\nmuch too long,2\n");
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.match(bad.body.detail, /inputs\.q must NOT have more than 5 characters/);
    assert.equal((await call(server, "GET", `/datasets?name=${name}`)).body.length, 0, "the dataset was not made either");
    const good = await upload(name, "q,n\nshort,1\nok,22\n");
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.equal(good.body.example_count, 2);
  });

  test("updating examples of two datasets through one dataset's PATCH is a 409; an unknown example stays a 404", async () => {
    const first = await client.createDataset(unique("sdk-two-a"));
    const second = await client.createDataset(unique("sdk-two-b"));
    const [a] = await client.createExamples([{ dataset_id: first.id, inputs: { q: "a" } }]);
    const [b] = await client.createExamples([{ dataset_id: second.id, inputs: { q: "b" } }]);
    await assert.rejects(
      client.updateExamples([
        { id: a.id, dataset_id: first.id, inputs: { q: "a2" } },
        { id: b.id, dataset_id: first.id, inputs: { q: "b2" } },
      ]),
      (e: Error) => e.name === "LangSmithConflictError" && e.message.includes(`belongs to dataset ${second.id}`),
    );
    assert.equal((await client.readExample(a.id)).inputs.q, "a", "nothing was changed");
    await assert.rejects(
      client.updateExamplesMultipart(first.id, [{ id: randomUUID(), inputs: { q: "?" } }]),
      (e: Error) => e.name === "LangSmithNotFoundError",
    );
  });

  test("creating a feedback config again after a PATCH returns the stored one; a different config is refused", async () => {
    const feedbackKey = unique("sdk-config");
    const made = await client.createFeedbackConfig({
      feedbackKey,
      feedbackConfig: { type: "continuous", min: 0, max: 1 },
      isLowerScoreBetter: false,
    });
    const updated = await client.updateFeedbackConfig(feedbackKey, { isLowerScoreBetter: true });
    assert.equal(updated.is_lower_score_better, true);
    // The Python client sends is_lower_score_better=False by default; the JS test sends true.
    for (const isLowerScoreBetter of [false, true]) {
      const again = await client.createFeedbackConfig({
        feedbackKey,
        feedbackConfig: { type: "continuous", min: 0, max: 1 },
        isLowerScoreBetter,
      });
      assert.equal(again.id, made.id);
      assert.equal(again.is_lower_score_better, true, "returned unchanged");
    }
    await assert.rejects(
      client.createFeedbackConfig({ feedbackKey, feedbackConfig: { type: "continuous", min: 0, max: 5 } }),
      status(400, /different feedback config/),
    );
  });

  test("a presigned feedback token is accepted by its id (the Python client) as well as by its url", async () => {
    const run = new RunTree({ name: "to-rate", run_type: "chain", inputs: { q: 1 }, client, project_name: unique("sdk-token") });
    await run.postRun();
    await run.end({ a: 1 });
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    await eventually(() => client.readRun(run.id).catch(() => null));
    const token = await client.createPresignedFeedbackToken(run.id, "rating");
    const byId = await fetch(`${server.url}/feedback/tokens/${token.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ score: 0.5, comment: "by id" }),
    });
    assert.equal(byId.status, 200, await byId.clone().text());
    assert.equal(((await byId.json()) as { score: number }).score, 0.5);
    const byUrl = await fetch(`${token.url}?score=1`);
    assert.equal(byUrl.status, 200, await byUrl.clone().text());
    const unknown = await fetch(`${server.url}/feedback/tokens/${randomUUID()}`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    assert.equal(unknown.status, 404);
    const scores = [];
    for await (const f of client.listFeedback({ runIds: [run.id] })) scores.push(f.score);
    assert.deepEqual(scores.sort(), [0.5, 1]);
  });
});
