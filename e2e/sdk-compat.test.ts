/**
 * The calls the langsmith SDKs' own integration tests found answered wrongly (issue 13), each driven
 * through the real npm client as those tests drive it: links (attachments, sharing, the UI's URLs),
 * deletes and comparative experiments. Filters, selects and wire shapes: sdk-compat-wire.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, collect, retrying } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("SDK compatibility: every call answered the way the SDK expects", () => {
  let server: RunningServer;
  let client: Client;
  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
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
    const run = await retrying(() => client.readRun(runId));
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
    await retrying(() => client.readRun(root.id));
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

  test("webUrl: getRunUrl and pushPrompt's URL point at this UI", async () => {
    const run = new RunTree({ name: "linked", run_type: "chain", inputs: {}, client, project_name: unique("links") });
    await run.postRun();
    await client.awaitPendingTraceBatches();
    await retrying(() => client.readRun(run.id));
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
