/**
 * The calls the langsmith SDKs' own integration tests found answered wrongly (issue 13), continued:
 * filters as the SDK writes them, attachment renames, unknown paths and methods, the columns the
 * Python client selects, token and cost breakdowns, executionOrder. Links and deletes: sdk-compat.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, collect, retrying } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("SDK compatibility: filters, selects and wire shapes as the SDK expects", () => {
  let server: RunningServer;
  let client: Client;
  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, webUrl: server.url });
  });
  after(async () => server?.stop());

  test("5. quoted field names in filters, as the SDK's examples test writes them", async () => {
    const project = unique("quoted");
    for (const i of [3, 4]) {
      const run = new RunTree({
        name: `run-${i}`,
        run_type: "chain",
        inputs: {},
        client,
        project_name: project,
        extra: { metadata: { i } },
      });
      await run.postRun();
    }
    await client.awaitPendingTraceBatches();
    const quoted = await retrying(async () => {
      const runs = await collect(client.listRuns({ projectName: project, filter: 'has("metadata", \'{"i": 4}\')' }));
      assert.equal(runs.length, 1);
      return runs;
    });
    assert.equal(quoted[0].name, "run-4");
    const bare = await collect(client.listRuns({ projectName: project, filter: "has(metadata, '{\"i\": 4}')" }));
    assert.deepEqual(
      bare.map((r) => r.id),
      quoted.map((r) => r.id),
    );
    const dataset = await client.createDataset(unique("quoted-examples"));
    await client.createExample({ q: 1 }, { a: 1 }, { datasetId: dataset.id, metadata: { split: "x" } });
    const examples = await collect(client.listExamples({ datasetId: dataset.id, filter: 'has("metadata", \'{"split": "x"}\')' }));
    assert.equal(examples.length, 1);
  });

  test("6. renaming an attachment an example does not have is a 4xx that names it", async () => {
    const dataset = await client.createDataset(unique("rename"));
    await client.uploadExamplesMultipart(dataset.id, [{ inputs: { q: 1 }, attachments: { photo: ["image/png", new Uint8Array([1])] } }]);
    const [example] = await collect(client.listExamples({ datasetId: dataset.id }));
    await assert.rejects(
      client.updateExample({
        id: example.id,
        dataset_id: dataset.id,
        attachments_operations: { rename: { missing: "renamed" }, retain: [] },
      }),
      (error: Error) => /40\d/.test(error.message) && /missing/.test(error.message),
    );
    await client.updateExample({
      id: example.id,
      dataset_id: dataset.id,
      attachments_operations: { rename: { photo: "picture" }, retain: [] },
    });
    const renamed = await client.readExample(example.id);
    assert.deepEqual(Object.keys(renamed.attachments ?? {}), ["picture"]);
  });

  test("7. unknown API paths answer JSON 404, wrong methods JSON 405 with Allow; /info is honest", async () => {
    for (const path of [
      "/runs/not/a/route",
      "/api/v1/nothing-here",
      "/v1/nothing-here",
      "/api/v2/nothing-here",
      "/v2/threads",
      "/datasets/x/y/z",
    ]) {
      const r = await call(server, "GET", path);
      assert.equal(r.status, 404, path);
      assert.match(r.headers.get("content-type") ?? "", /application\/json/, path);
      assert.match(r.body.detail, /no API route/, path);
    }
    const wrong = await call(server, "PUT", "/runs/query", {});
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "POST, OPTIONS");
    assert.match(wrong.body.detail, /PUT is not allowed/);
    const info = await call(server, "GET", "/info");
    assert.equal(info.body.version, "0.16.14");
    assert.equal(info.body.instance_flags.sdb_query_enabled, true);
    assert.equal(info.body.region_urls.us, server.url, "this deployment as the client reached it");
  });

  test("8. select keeps the identity columns the Python client requires", async () => {
    const project = unique("select");
    const run = new RunTree({ name: "selected", run_type: "llm", inputs: { q: "hi" }, client, project_name: project });
    await run.postRun();
    await run.end({ a: "hello" });
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    const [picked] = await retrying(async () => {
      const runs = await collect(client.listRuns({ projectName: project, select: ["inputs", "outputs"] }));
      assert.equal(runs.length, 1);
      return runs;
    });
    for (const key of ["id", "name", "run_type", "start_time", "trace_id", "dotted_order", "session_id", "status", "inputs", "outputs"]) {
      assert.ok(key in picked, `${key} is returned`);
    }
    assert.equal(picked.name, "selected");
    assert.equal("extra" in picked, false, "what was not selected stays out");
  });

  test("9. token and cost breakdowns come back under the SDK's names", async () => {
    const project = unique("breakdown");
    const llm = new RunTree({
      name: "ChatOpenAI",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "hi" }] },
      client,
      project_name: project,
      extra: { metadata: { ls_model_name: "gpt-4o", ls_provider: "openai" } },
    });
    await llm.postRun();
    await llm.end({
      messages: [{ role: "assistant", content: "hello" }],
      usage_metadata: {
        input_tokens: 100,
        output_tokens: 40,
        total_tokens: 140,
        input_token_details: { cache_read: 60, audio: 5 },
        output_token_details: { reasoning: 30 },
      },
    });
    await llm.patchRun();
    await client.awaitPendingTraceBatches();
    const run = await retrying(async () => {
      const r = (await client.readRun(llm.id)) as unknown as Record<string, unknown>;
      assert.equal(r.total_tokens, 140);
      return r;
    });
    assert.deepEqual(run.prompt_token_details, { cache_read: 60, audio: 5 });
    assert.deepEqual(run.completion_token_details, { reasoning: 30 });
    assert.ok((run.prompt_cost_details as Record<string, number>).cache_read > 0, JSON.stringify(run.prompt_cost_details));
    assert.ok((run.completion_cost_details as Record<string, number>).reasoning > 0, JSON.stringify(run.completion_cost_details));
    const [queried] = (await collect(
      client.listRuns({ projectName: project, select: ["prompt_token_details", "completion_cost_details"] }),
    )) as unknown as Record<string, unknown>[];
    assert.deepEqual(queried.prompt_token_details, { cache_read: 60, audio: 5 });
    assert.deepEqual(queried.completion_cost_details, run.completion_cost_details);
  });

  test("10. executionOrder: 1 lists root runs only", async () => {
    const project = unique("execution-order");
    const root = new RunTree({ name: "root", run_type: "chain", inputs: {}, client, project_name: project });
    await root.postRun();
    const child = root.createChild({ name: "child", run_type: "tool", inputs: {} });
    await child.postRun();
    await client.awaitPendingTraceBatches();
    await retrying(async () => assert.equal((await collect(client.listRuns({ projectName: project }))).length, 2));
    const roots = await collect(client.listRuns({ projectName: project, executionOrder: 1 }));
    assert.deepEqual(
      roots.map((r) => r.name),
      ["root"],
    );
  });
});
