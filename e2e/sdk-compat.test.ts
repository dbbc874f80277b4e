/**
 * The calls the langsmith SDKs' own integration tests found answered wrongly (issue 13), each driven
 * through the real npm client as those tests drive it (or the exact wire shape where only Python sends it).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("SDK compatibility: every call answered the way the SDK expects", () => {
  let server: RunningServer;
  let client: Client;
  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  /** Retries `probe` until it returns without throwing (ingest is asynchronous for the client). */
  const eventually = async <T>(probe: () => Promise<T>, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await probe();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  };
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, webUrl: server.url });
  });
  after(async () => server?.stop());

  test("1. attachment links are absolute URLs of this server that fetch() opens", async () => {
    const dataset = await client.createDataset(unique("attachments"));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await client.uploadExamplesMultipart(dataset.id, [
      { inputs: { q: "describe" }, outputs: { a: "a square" }, attachments: { photo: ["image/png", png] } },
    ]);
    const [listed] = await collect(client.listExamples({ datasetId: dataset.id, includeAttachments: true }));
    const example = await client.readExample(listed.id);
    const link = example.attachments!.photo.presigned_url;
    assert.ok(link.startsWith(`${server.url}/api/v1/public/blobs/`), link);
    const raw = await call(server, "GET", `/examples/${listed.id}`);
    assert.ok(
      raw.body.attachment_urls["attachment.photo"].presigned_url.startsWith(`${server.url}/`),
      "absolute on the wire, not only after the client resolves it",
    );
    const bytes = new Uint8Array(await (await fetch(link)).arrayBuffer());
    assert.deepEqual([...bytes], [...png]);

    const runId = randomUUID();
    const project = unique("attached-run");
    const form = new FormData();
    form.append(
      `post.${runId}`,
      new Blob(
        [
          JSON.stringify({
            id: runId,
            trace_id: runId,
            dotted_order: `20260101T000000000000Z${runId}`,
            name: "with-file",
            run_type: "chain",
            session_name: project,
            start_time: new Date().toISOString(),
            inputs: {},
          }),
        ],
        { type: "application/json" },
      ),
    );
    form.append(`attachment.${runId}.report`, new Blob(["hello"], { type: "text/plain" }));
    assert.equal(
      (await fetch(`${server.url}/runs/multipart`, { method: "POST", headers: { "x-api-key": server.apiKey }, body: form })).status,
      202,
    );
    const run = await eventually(() => client.readRun(runId));
    const url = (run as unknown as { s3_urls: Record<string, { presigned_url: string }> }).s3_urls["attachment.report"].presigned_url;
    assert.ok(url.startsWith(server.url), url);
    assert.equal(await (await fetch(url)).text(), "hello");
  });

  test("2. every DELETE the clients call answers 200 with a JSON body; deletePrompt works", async () => {
    const name = unique("prompt");
    await client.createPrompt(name);
    assert.equal(await client.promptExists(name), true);
    await client.deletePrompt(name);
    assert.equal(await client.promptExists(name), false);
    const dataset = await client.createDataset(unique("to-delete"));
    const deleted = await call(server, "DELETE", `/datasets/${dataset.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(typeof deleted.body, "object");
    const project = await client.createProject({ projectName: unique("to-delete") });
    await client.deleteProject({ projectId: project.id });
  });

  test("3. shareRun and shareDataset links open: the UI page and the SDK's reads", async () => {
    const root = new RunTree({
      name: "shared-agent",
      run_type: "chain",
      inputs: { question: "share me" },
      client,
      project_name: unique("share"),
    });
    await root.postRun();
    await root.end({ answer: "shared" });
    await root.patchRun();
    await client.awaitPendingTraceBatches();
    await eventually(() => client.readRun(root.id));
    const runLink = await client.shareRun(root.id);
    assert.match(runLink, new RegExp(`^${server.url}/public/[^/]+/r$`));
    const page = await fetch(runLink);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /shared-agent/);
    const token = runLink.split("/").at(-2)!;
    const shared = await client.listSharedRuns(token);
    assert.deepEqual(
      shared.map((r) => r.name),
      ["shared-agent"],
    );

    const dataset = await client.createDataset(unique("shared-ds"));
    await client.createExample({ q: "2+2" }, { a: "4" }, { datasetId: dataset.id });
    const share = await client.shareDataset(dataset.id);
    const dsPage = await fetch(share.url!);
    assert.equal(dsPage.status, 200);
    assert.match(await dsPage.text(), /2\+2/);
    assert.equal((await client.readSharedDataset(share.share_token)).id, dataset.id);
    await client.unshareRun(root.id);
    assert.equal((await fetch(runLink)).status, 404, "a revoked link is the not-found page");
  });

  test("4. createComparativeExperiment answers the comparative experiment", async () => {
    const dataset = await client.createDataset(unique("compare"));
    const a = await client.createProject({ projectName: unique("exp-a"), referenceDatasetId: dataset.id });
    const b = await client.createProject({ projectName: unique("exp-b"), referenceDatasetId: dataset.id });
    const made = await client.createComparativeExperiment({
      name: "a vs b",
      experimentIds: [a.id, b.id],
      referenceDatasetId: dataset.id,
      metadata: { judge: "human" },
    });
    assert.equal(made.name, "a vs b");
    assert.equal(made.reference_dataset_id, dataset.id);
    assert.deepEqual(
      made.experiments_info?.map((e) => e.id),
      [a.id, b.id],
    );
    assert.deepEqual(made.extra, { metadata: { judge: "human" } });
    const missing = await call(server, "POST", "/datasets/comparative", {
      experiment_ids: [randomUUID()],
      reference_dataset_id: dataset.id,
    });
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /Experiment .* not found/);
  });

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
    const quoted = await eventually(async () => {
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
    const [picked] = await eventually(async () => {
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
    const run = await eventually(async () => {
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
    await eventually(async () => assert.equal((await collect(client.listRuns({ projectName: project }))).length, 2));
    const roots = await collect(client.listRuns({ projectName: project, executionOrder: 1 }));
    assert.deepEqual(
      roots.map((r) => r.name),
      ["root"],
    );
  });

  test("webUrl: getRunUrl and pushPrompt's URL point at this UI", async () => {
    const run = new RunTree({ name: "linked", run_type: "chain", inputs: {}, client, project_name: unique("links") });
    await run.postRun();
    await client.awaitPendingTraceBatches();
    await eventually(() => client.readRun(run.id));
    const runUrl = await client.getRunUrl({ runId: run.id });
    assert.ok(runUrl.startsWith(`${server.url}/o/${server.workspaceId}/projects/p/`), runUrl);
    assert.equal((await fetch(runUrl, { redirect: "manual" })).status < 500, true);
    const promptUrl = await client.pushPrompt(unique("linked-prompt"), {
      object: {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "prompt", "PromptTemplate"],
        kwargs: { template: "{q}", input_variables: ["q"] },
      },
    });
    assert.ok(promptUrl.startsWith(server.url), promptUrl);
  });
});
