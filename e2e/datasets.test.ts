import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { otherWorkspaceKey } from "./harness/auth";
import { call, collect, eventually } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

describe("datasets and examples with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  test("createDataset, readDataset by name and id, listDatasets, 409 on a taken name, updateDataset", async () => {
    const name = unique("e2e-ds");
    const dataset = await client.createDataset(name, { description: "qa pairs", dataType: "kv", metadata: { team: "search" } });
    assert.equal(dataset.name, name);
    assert.equal(dataset.tenant_id, server.workspaceId);
    assert.equal((await client.readDataset({ datasetName: name })).id, dataset.id);
    assert.equal((await client.readDataset({ datasetId: dataset.id })).description, "qa pairs");
    assert.equal(await client.hasDataset({ datasetName: unique("missing") }), false);
    const listed = await collect(client.listDatasets({ datasetNameContains: name.slice(-8) }));
    assert.deepEqual(
      listed.map((d) => d.id),
      [dataset.id],
    );
    assert.equal(
      (await collect(client.listDatasets({ metadata: { team: "search" } }))).some((d) => d.id === dataset.id),
      true,
    );
    await assert.rejects(client.createDataset(name), (e: Error & { status?: number }) => e.status === 409);
    const renamed = await client.updateDataset({ datasetId: dataset.id, name: `${name}-2`, description: "renamed" });
    assert.equal(renamed.name, `${name}-2`);
  });

  test("createExamples through the multipart endpoint with an attachment, splits and metadata filters", async () => {
    const dataset = await client.createDataset(unique("e2e-ex"));
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const created = await client.createExamples([
      {
        dataset_id: dataset.id,
        inputs: { q: "2+2" },
        outputs: { a: "4" },
        metadata: { lang: "en" },
        split: "train",
        attachments: { photo: ["image/png", png] },
      },
      { dataset_id: dataset.id, inputs: { q: "3+3" }, outputs: { a: "6" }, metadata: { lang: "fr" }, split: "test" },
    ]);
    assert.equal(created.length, 2);
    const [first] = created;
    assert.deepEqual(first.metadata, { lang: "en", dataset_split: ["train"] });
    const photo = first.attachments?.photo;
    assert.ok(photo, "the example has its attachment");
    assert.equal(photo.mime_type, "image/png");
    const bytes = new Uint8Array(await (await fetch(photo.presigned_url)).arrayBuffer());
    assert.deepEqual(bytes, png);
    const train = await collect(client.listExamples({ datasetId: dataset.id, splits: ["train"] }));
    assert.deepEqual(
      train.map((e) => e.id),
      [first.id],
    );
    const french = await collect(client.listExamples({ datasetId: dataset.id, metadata: { lang: "fr" } }));
    assert.deepEqual(
      french.map((e) => e.inputs),
      [{ q: "3+3" }],
    );
    const filtered = await collect(
      client.listExamples({ datasetId: dataset.id, filter: `and(has(metadata, '{"lang":"en"}'), exists(outputs, "a"))` }),
    );
    assert.deepEqual(
      filtered.map((e) => e.id),
      [first.id],
    );
    assert.deepEqual((await client.listDatasetSplits({ datasetId: dataset.id })).sort(), ["test", "train"]);
    await client.updateDatasetSplits({ datasetId: dataset.id, splitName: "gold", exampleIds: [first.id] });
    assert.deepEqual((await client.readExample(first.id)).metadata?.dataset_split, ["train", "gold"]);
    const single = await client.createExample({ q: "one" }, { a: "two" }, { datasetId: dataset.id, split: "dev" });
    assert.deepEqual(single.inputs, { q: "one" });
    assert.equal((await client.readDataset({ datasetId: dataset.id })).example_count, 3);
  });

  test("a tagged version keeps the old state through updateExample and deleteExample; diff names the changes", async () => {
    const dataset = await client.createDataset(unique("e2e-ver"));
    const [kept, dropped] = await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ q: "a" }, { q: "b" }],
      outputs: [{ r: "1" }, { r: "2" }],
    });
    const version = await client.readDatasetVersion({ datasetId: dataset.id, asOf: new Date() });
    await client.updateDatasetTag({ datasetId: dataset.id, asOf: version.as_of, tag: "v1" });
    assert.deepEqual((await client.readDatasetVersion({ datasetId: dataset.id, tag: "v1" })).tags, ["v1"]);
    await new Promise((r) => setTimeout(r, 10));
    await client.updateExample(kept.id, { outputs: { r: "one" }, metadata: { reviewed: true } });
    await client.deleteExample(dropped.id);
    const now = await collect(client.listExamples({ datasetId: dataset.id }));
    assert.deepEqual(
      now.map((e) => [e.id, e.outputs]),
      [[kept.id, { r: "one" }]],
    );
    const v1 = await collect(client.listExamples({ datasetId: dataset.id, asOf: "v1" }));
    assert.deepEqual(
      v1.map((e) => e.outputs).sort((x, y) => String(x?.r).localeCompare(String(y?.r))),
      [{ r: "1" }, { r: "2" }],
    );
    const diff = await client.diffDatasetVersions({ datasetId: dataset.id, fromVersion: "v1", toVersion: "latest" });
    assert.deepEqual(diff, { examples_modified: [kept.id], examples_added: [], examples_removed: [dropped.id] });
    await assert.rejects(client.readExample(dropped.id), /404|not found/i);
    await client.deleteExamples([kept.id], { hardDelete: true });
    assert.equal((await collect(client.listExamples({ datasetId: dataset.id, asOf: "v1" }))).length, 1);
    const versions = await call(server, "GET", `/datasets/${dataset.id}/versions`);
    assert.equal(versions.status, 200);
    assert.ok(versions.body.some((v: { tags: string[] }) => v.tags.includes("v1")));
  });

  test("evaluate() over a dataset: an experiment referencing it, runs per example, feedback", async () => {
    const dataset = await client.createDataset(unique("e2e-eval"));
    await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ q: "a" }, { q: "b" }, { q: "c" }],
      outputs: [{ answer: "A" }, { answer: "B" }, { answer: "x" }],
    });
    const results = await evaluate((inputs: Record<string, any>) => ({ answer: String(inputs.q).toUpperCase() }), {
      data: dataset.name,
      client,
      experimentPrefix: "e2e-eval",
      maxConcurrency: 2,
      evaluators: [
        ({ outputs, referenceOutputs }: { outputs?: Record<string, any>; referenceOutputs?: Record<string, any> }) => ({
          key: "exact",
          score: outputs?.answer === referenceOutputs?.answer ? 1 : 0,
        }),
      ],
    });
    const rows = results.results;
    assert.equal(rows.length, 3);
    const scores = rows.map((r) => r.evaluationResults.results[0]?.score).sort();
    assert.deepEqual(scores, [0, 1, 1]);
    await client.awaitPendingTraceBatches();
    const experiment = await client.readProject({ projectName: results.experimentName });
    assert.equal(experiment.reference_dataset_id, dataset.id);
    assert.equal((await client.readDataset({ datasetId: dataset.id })).session_count, 1);
    const runs = await eventually(async () => {
      const found = await call(server, "POST", "/runs/query", { session: [experiment.id], is_root: true });
      return found.body?.runs?.length === 3 ? found.body.runs : null;
    });
    const examples = new Set((await collect(client.listExamples({ datasetId: dataset.id }))).map((e) => e.id));
    assert.ok(runs.every((r: { reference_example_id: string }) => examples.has(r.reference_example_id)));
  });

  test("uploadCsv makes a dataset of examples from the chosen columns", async () => {
    const name = unique("e2e-csv");
    const csv = 'question,answer,notes\nhi,hello,x\n"a, b","c ""d""",y\n';
    const dataset = await client.uploadCsv({
      csvFile: new Blob([csv]),
      fileName: "qa.csv",
      inputKeys: ["question"],
      outputKeys: ["answer"],
      name,
      dataType: "kv",
    });
    assert.equal(dataset.name, name);
    const examples = await collect(client.listExamples({ datasetId: dataset.id }));
    const pairs = examples.map((e) => [e.inputs.question, e.outputs?.answer]).sort();
    assert.deepEqual(pairs, [
      ["a, b", 'c "d"'],
      ["hi", "hello"],
    ]);
    await assert.rejects(
      client.uploadCsv({ csvFile: new Blob([csv]), fileName: "qa.csv", inputKeys: ["nope"], outputKeys: [], name: unique("bad") }),
      /400|column/,
    );
  });

  test("runs become examples: createExample with source_run_id and POST /datasets/{id}/runs", async () => {
    const project = unique("e2e-ds-runs");
    const run = new RunTree({ name: "qa", run_type: "chain", inputs: { question: "why?" }, client, project_name: project });
    await run.postRun();
    await run.end({ answer: "because" });
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    await eventually(async () => (await call(server, "GET", `/runs/${run.id}`)).body?.outputs?.answer === "because");
    const dataset = await client.createDataset(unique("e2e-from-runs"));
    const example = await client.createExample({ dataset_id: dataset.id, source_run_id: run.id, use_source_run_io: true } as never);
    assert.deepEqual(example.inputs, { question: "why?" });
    assert.deepEqual(example.outputs, { answer: "because" });
    assert.equal(example.source_run_id, run.id);
    const added = await call(server, "POST", `/datasets/${dataset.id}/runs`, { run_ids: [run.id], split: "prod" });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body[0].metadata, { dataset_split: ["prod"] });
    assert.equal((await call(server, "POST", `/datasets/${dataset.id}/runs`, { run_ids: [randomUUID()] })).status, 404);
  });

  test("another workspace sees none of these datasets or examples (404)", async () => {
    const dataset = await client.createDataset(unique("e2e-iso"));
    const [example] = await client.createExamples({ datasetId: dataset.id, inputs: [{ q: "private" }] });
    const other = new Client({ apiUrl: server.url, apiKey: await otherWorkspaceKey(server.url, "datasets e2e") });
    const notFound = (e: Error & { status?: number }) => e.status === 404 || /404|not found/i.test(e.message);
    await assert.rejects(other.readDataset({ datasetId: dataset.id }), notFound);
    assert.deepEqual(await collect(other.listDatasets()), []);
    await assert.rejects(collect(other.listExamples({ datasetId: dataset.id })), notFound);
    await assert.rejects(other.readExample(example.id), notFound);
    await assert.rejects(other.createExamples([{ dataset_id: dataset.id, inputs: { q: "intrusion" } }]), notFound);
    await assert.rejects(other.updateExample(example.id, { dataset_id: dataset.id, outputs: { a: "x" } }), notFound);
    await assert.rejects(other.deleteDataset({ datasetId: dataset.id }), notFound);
    const mine = await client.readExample(example.id);
    assert.deepEqual([mine.inputs, mine.outputs], [{ q: "private" }, null]);
  });

  test("bad input is a clear 4xx; unknown datasets and examples are 404", async () => {
    const dataset = await client.createDataset(unique("e2e-bad"));
    const expect = async (status: number, method: string, path: string, body?: unknown) => {
      const res = await call(server, method, path, body);
      assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
      if (status >= 400) assert.equal(typeof res.body.detail, "string");
    };
    await expect(400, "POST", "/datasets", {});
    await expect(400, "POST", "/datasets", { name: "x", data_type: "table" });
    await expect(404, "GET", `/datasets/${randomUUID()}`);
    await expect(404, "GET", "/datasets/not-a-uuid");
    await expect(400, "GET", "/examples");
    await expect(400, "GET", `/examples?dataset=${dataset.id}&metadata=nope`);
    await expect(404, "GET", `/examples?dataset=${dataset.id}&as_of=no-such-tag`);
    await expect(404, "GET", `/examples/${randomUUID()}`);
    await expect(404, "PATCH", `/examples/${randomUUID()}`, { inputs: { q: 1 } });
    await expect(400, "DELETE", "/examples");
    await expect(400, "PUT", `/datasets/${dataset.id}/tags`, { tag: "x", as_of: "yesterday" });
    await expect(400, "GET", `/datasets/${dataset.id}/version`);
    const json = await call(server, "POST", "/examples", { dataset_id: dataset.id, inputs: { q: "json" }, split: "s" });
    assert.equal(json.status, 200);
    assert.deepEqual(json.body.metadata, { dataset_split: ["s"] });
    const bulk = await call(server, "POST", "/examples/bulk", [
      { dataset_id: dataset.id, inputs: { q: 1 } },
      { dataset_id: dataset.id, inputs: { q: 2 } },
    ]);
    assert.deepEqual(
      bulk.body.map((e: { inputs: unknown }) => e.inputs),
      [{ q: 1 }, { q: 2 }],
    );
    const { body, contentType } = multipartBody([{ name: `${randomUUID()}.inputs`, json: { q: 1 } }]);
    const missing = await fetch(`${server.url}/v1/platform/datasets/${randomUUID()}/examples`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": contentType },
      body: new Uint8Array(body),
    });
    assert.equal(missing.status, 404);
    const badName = multipartBody([{ name: "not-an-id", json: {} }]);
    const rejected = await fetch(`${server.url}/v1/platform/datasets/${dataset.id}/examples`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": badName.contentType },
      body: new Uint8Array(badName.body),
    });
    assert.equal(rejected.status, 400);
    assert.match((await rejected.json()).detail, /not-an-id/);
    assert.equal((await fetch(`${server.url}/datasets`)).status, 401);
    await client.deleteDataset({ datasetId: dataset.id });
    await expect(404, "GET", `/datasets/${dataset.id}`);
  });
});
