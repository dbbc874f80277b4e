import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import type { Part } from "../http/multipart";
import { storeProject, storeRun } from "../feedback/test-runs";
import { addRunToDataset } from "../rules/dataset";
import { startJobs, stopJobs } from "../jobs/queue";
import { evaluateRules } from "../rules/evaluate";
import "../rules/deliver";
import { ruleCreate } from "../rules/schema";
import { createRule, ruleLogs } from "../rules/service";
import type { RuleRun } from "../rules/actions";
import { parseCsv, uploadCsv } from "./csv";
import { updateExamples } from "./example-updates";
import { createExamples, deleteExamples, listExamples, readExample } from "./examples";
import { createFromMultipart, updateFromMultipart } from "./multipart";
import { addRunsToDataset } from "./runs";
import { datasetFilterFromWire, datasetListQuery, exampleFilterFromWire, exampleListQuery } from "./schema";
import { createDataset, deleteDataset, listDatasets, readDataset, updateDataset } from "./service";
import { applyMetadataOperations, listSplits, updateSplits } from "./splits";
import { diffVersions, listVersions, readVersion, setTag } from "./versions";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "tracelight-datasets-"));

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;
const pause = () => new Promise((r) => setTimeout(r, 5));
const part = (name: string, body: string | Buffer, contentType = "application/json"): Part => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return { name, filename: "blob", contentType, headers: {}, size: bytes.length, body: bytes };
};
async function until<T>(read: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting for the rule's action");
    await new Promise((r) => setTimeout(r, 50));
  }
}
const list = (db: Sql, ws: string, q: Record<string, unknown>) => listExamples(db, ws, exampleFilterFromWire(exampleListQuery.parse(q)));

withTestDatabases("datasets", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  let ds: string;

  test("datasets: create, 409 on a taken name, list filters, update, read counts", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "datasets tests")).id;
    other = (await createWorkspace(db.prisma, "other")).id;
    const created = await createDataset(db, ws, {
      name: "qa",
      description: "questions",
      extra: { source: "sdk", metadata: { team: "search" } },
    });
    ds = created.id as string;
    assert.equal(created.tenant_id, ws);
    assert.equal(created.data_type, "kv");
    assert.deepEqual(created.metadata, { team: "search" });
    assert.equal(created.example_count, 0);
    await assert.rejects(createDataset(db, ws, { name: "qa" }), status(409));
    await createDataset(db, other, { name: "qa" });
    await createDataset(db, ws, { name: "chat-logs", data_type: "chat" });
    const names = async (q: Record<string, unknown>) =>
      (await listDatasets(db, ws, datasetFilterFromWire(datasetListQuery.parse(q)))).map((d) => d.name).sort();
    assert.deepEqual(await names({}), ["chat-logs", "qa"]);
    assert.deepEqual(await names({ name: "qa" }), ["qa"]);
    assert.deepEqual(await names({ name_contains: "LOG" }), ["chat-logs"]);
    assert.deepEqual(await names({ data_type: "chat" }), ["chat-logs"]);
    assert.deepEqual(await names({ id: [ds] }), ["qa"]);
    assert.deepEqual(await names({ metadata: '{"team":"search"}' }), ["qa"]);
    assert.deepEqual(await names({ limit: "1", offset: "1" }), ["qa"]);
    const updated = await updateDataset(db, ws, ds, { description: "better", metadata: { team: "core" } });
    assert.equal(updated.description, "better");
    assert.deepEqual(updated.metadata, { team: "core" });
    await assert.rejects(updateDataset(db, ws, ds, { name: "chat-logs" }), status(409));
    await assert.rejects(readDataset(db, other, ds), status(404));
    await assert.rejects(readDataset(db, ws, "nope"), status(404));
  });

  test("examples: multipart create with attachment and split, read, metadata and split filters", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const result = await createFromMultipart(db, ws, ds, [
      part(a, JSON.stringify({ metadata: { lang: "en" }, split: "train" })),
      part(`${a}.inputs`, JSON.stringify({ q: "2+2" })),
      part(`${a}.outputs`, JSON.stringify({ a: "4" })),
      part(`${a}.attachment.photo`, Buffer.from([1, 2, 3]), "image/png; length=3"),
      part(b, JSON.stringify({ metadata: { lang: "fr" }, split: ["test", "hard"] })),
      part(`${b}.inputs`, JSON.stringify({ q: "3+3" })),
    ]);
    assert.equal(result.count, 2);
    assert.deepEqual(result.example_ids, [a, b]);
    const ex = await readExample(db, ws, a);
    assert.deepEqual(ex.inputs, { q: "2+2" });
    assert.deepEqual(ex.outputs, { a: "4" });
    assert.deepEqual(ex.metadata, { lang: "en", dataset_split: ["train"] });
    const links = ex.attachment_urls as Record<string, { presigned_url: string; mime_type: string }>;
    assert.equal(links["attachment.photo"].mime_type, "image/png");
    assert.match(links["attachment.photo"].presigned_url, /^https?:\/\/[^/]+\/api\/v1\/public\/blobs\/[0-9a-f]{64}\?/);
    assert.equal((await readExample(db, ws, b)).attachment_urls, null);
    assert.deepEqual(
      (await list(db, ws, { dataset: ds, splits: ["test"] })).map((e) => e.id),
      [b],
    );
    assert.deepEqual(
      (await list(db, ws, { dataset: ds, metadata: '{"lang":"en"}' })).map((e) => e.id),
      [a],
    );
    assert.deepEqual((await list(db, ws, { id: [a, b] })).map((e) => e.id).sort(), [a, b].sort());
    const filtered = async (filter: string) => (await list(db, ws, { dataset: ds, filter })).map((e) => e.id);
    assert.deepEqual(await filtered(`has(metadata, '{"lang":"fr"}')`), [b]);
    assert.deepEqual(await filtered(`and(exists(outputs, "a"), not(eq(id, "${b}")))`), [a]);
    assert.deepEqual(await filtered(`or(search("3+3"), in(id, ["${a}"]))`), [a, b]);
    await assert.rejects(list(db, ws, { dataset: ds, filter: "gt(latency, 1)" }), (e: Error) =>
      /examples can be filtered|cannot be used/.test(e.message),
    );
    await assert.rejects(list(db, ws, { dataset: ds, filter: "has(metadata" }), (e: { clientStatus?: number }) => e.clientStatus === 400);
    assert.deepEqual(await listSplits(db, ws, ds), ["hard", "test", "train"]);
    assert.equal((await readDataset(db, ws, ds)).example_count, 2);
    await assert.rejects(createFromMultipart(db, ws, ds, [part(a, "{}"), part(`${a}.inputs`, "{}")]), status(409));
    await assert.rejects(createFromMultipart(db, ws, ds, [part("x.inputs", "{}")]), status(400));
    await assert.rejects(createFromMultipart(db, ws, ds, [part(randomUUID(), "{}")]), status(400), "no inputs");
    await assert.rejects(createFromMultipart(db, ws, ds, [part(`${randomUUID()}.inputs`, "{nope")]), status(400));
    await assert.rejects(createFromMultipart(db, other, ds, [part(`${randomUUID()}.inputs`, "{}")]), status(404));
    await assert.rejects(list(db, other, { dataset: ds }), status(404));
    await assert.rejects(readExample(db, other, a), status(404));
  });

  test("versions: a tag keeps the old state; updates, deletes, diff and version list", async () => {
    const [first, second] = await list(db, ws, { dataset: ds });
    assert.ok(first.attachment_urls && !second.attachment_urls, "examples created together keep their order");
    const id = first.id as string;
    const v1 = await readVersion(db, ws, ds, { as_of: new Date().toISOString() });
    await setTag(db, ws, ds, { as_of: v1.as_of!, tag: "v1" });
    await pause();
    const changed = await updateFromMultipart(db, ws, ds, [
      part(id, JSON.stringify({ metadata: { lang: "en", reviewed: true } })),
      part(`${id}.outputs`, JSON.stringify({ a: "four" })),
      part(`${id}.attachments_operations`, JSON.stringify({ rename: { photo: "picture" } })),
    ]);
    assert.equal(changed.count, 1);
    const now = await readExample(db, ws, id);
    assert.deepEqual(now.outputs, { a: "four" });
    assert.deepEqual(now.metadata, { lang: "en", reviewed: true, dataset_split: ["train"] }, "the split survives a metadata update");
    assert.deepEqual(Object.keys(now.attachment_urls as object), ["attachment.picture"]);
    const old = await list(db, ws, { dataset: ds, as_of: "v1" });
    assert.deepEqual(old.find((e) => e.id === id)?.outputs, { a: "4" });
    assert.deepEqual((await readExample(db, ws, id, "v1")).outputs, { a: "4" });
    await pause();
    const other2 = (await list(db, ws, { dataset: ds })).find((e) => e.id !== id)!.id as string;
    await deleteExamples(db, ws, [other2]);
    await assert.rejects(readExample(db, ws, other2), status(404));
    assert.equal((await list(db, ws, { dataset: ds })).length, 1);
    assert.equal((await list(db, ws, { dataset: ds, as_of: "v1" })).length, 2, "the deleted example is still in v1");
    assert.deepEqual(await diffVersions(db, ws, ds, { from_version: "v1", to_version: "latest" }), {
      examples_modified: [id],
      examples_added: [],
      examples_removed: [other2],
    });
    const versions = await listVersions(db, ws, ds, { offset: 0, limit: 10 });
    assert.equal(versions.length, 3);
    assert.deepEqual(versions.at(-1)?.tags, ["v1"]);
    assert.deepEqual(await readVersion(db, ws, ds, { tag: "v1" }), { as_of: v1.as_of, tags: ["v1"] });
    await assert.rejects(list(db, ws, { dataset: ds, as_of: "v9" }), status(404));
    await assert.rejects(readVersion(db, ws, ds, {}), status(400));
    await assert.rejects(deleteExamples(db, ws, [other2]), status(404));
    await assert.rejects(deleteExamples(db, ws, ["bad"]), status(400));
  });

  test("JSON create/update, splits by PUT and metadata operations, hard delete", async () => {
    const made = await createExamples(db, ws, ds, [
      { inputs: { q: "x" }, outputs: { a: "y" } },
      { inputs: { q: "z" }, split: "train" },
    ]);
    const [x, z] = made.example_ids;
    await updateExamples(db, ws, null, [{ id: x, inputs: { q: "x2" }, split: "dev" }]);
    assert.deepEqual((await readExample(db, ws, x)).metadata, { dataset_split: ["dev"] });
    assert.deepEqual(await updateSplits(db, ws, ds, { split_name: "gold", examples: [x, z], remove: false }), [x, z]);
    await updateSplits(db, ws, ds, { split_name: "train", examples: [z], remove: true });
    assert.deepEqual((await readExample(db, ws, z)).metadata, { dataset_split: ["gold"] });
    await applyMetadataOperations(db, ws, ds, {
      example_ids: [x],
      operations: [{ key: "labels", operation: "array_add", values: ["a", "b"] }],
    });
    assert.deepEqual((await readExample(db, ws, x)).metadata, { dataset_split: ["dev", "gold"], labels: ["a", "b"] });
    await assert.rejects(updateExamples(db, ws, null, [{ id: randomUUID(), inputs: {} }]), status(404));
    await assert.rejects(updateExamples(db, other, null, [{ id: x, inputs: {} }]), status(404));
    await deleteExamples(db, ws, [x], true);
    assert.equal(
      (await list(db, ws, { dataset: ds, as_of: "v1" })).some((e) => e.id === x),
      false,
    );
  });

  test("runs become examples (route and rule action), CSV upload, delete dataset", async () => {
    const project = await storeProject(db, ws);
    const runId = await storeRun(db, ws, project, { inputs: { question: "why" }, outputs: { answer: "because" } });
    const [example] = await addRunsToDataset(db, ws, ds, { run_ids: [runId], split: "from-runs" });
    assert.deepEqual(example.inputs, { question: "why" });
    assert.deepEqual(example.outputs, { answer: "because" });
    assert.equal(example.source_run_id, runId);
    await assert.rejects(addRunsToDataset(db, ws, ds, { run_ids: [randomUUID()] }), status(404));
    const run = { id: runId, inputs: { question: "rule" }, outputs: null } as unknown as RuleRun;
    const fromRule = await addRunToDataset(db, ws, ds, run);
    assert.equal((await readExample(db, ws, fromRule)).source_run_id, runId);
    const viaMultipart = randomUUID();
    await createFromMultipart(db, ws, ds, [part(viaMultipart, JSON.stringify({ source_run_id: runId, use_source_run_io: true }))]);
    assert.deepEqual((await readExample(db, ws, viaMultipart)).outputs, { answer: "because" });

    assert.deepEqual(parseCsv('a,b\r\n"x, ""y""",2\n"multi\nline",3\n'), [
      ["a", "b"],
      ['x, "y"', "2"],
      ["multi\nline", "3"],
    ]);
    const csv = 'question,answer,extra\nhi,hello,1\n"q, 2",a2,2\n';
    const fields = [
      part("file", csv, "text/csv"),
      part("input_keys", "question", "text/plain"),
      part("output_keys", "answer", "text/plain"),
    ];
    fields[0].filename = "greetings.csv";
    const uploaded = await uploadCsv(db, ws, [...fields, part("name", "greetings", "text/plain"), part("data_type", "kv", "text/plain")]);
    assert.equal(uploaded.name, "greetings");
    assert.equal(uploaded.example_count, 2);
    const rows = await list(db, ws, { dataset: uploaded.id });
    assert.deepEqual(
      rows.map((r) => r.inputs).sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q))),
      [{ question: "hi" }, { question: "q, 2" }],
    );
    await assert.rejects(uploadCsv(db, ws, [...fields, part("name", "greetings", "text/plain")]), status(409));
    await assert.rejects(
      uploadCsv(db, ws, [fields[0], part("input_keys", "nope", "text/plain"), part("name", "n2", "text/plain")]),
      status(400),
    );
    await assert.rejects(uploadCsv(db, ws, [part("name", "n3", "text/plain")]), status(400));

    const removed = await deleteDataset(db, ws, uploaded.id as string);
    assert.equal(removed.examples, 2);
    await assert.rejects(readDataset(db, ws, uploaded.id as string), status(404));
    await assert.rejects(deleteDataset(db, other, ds), status(404));
  });

  test("an automation rule with add_to_dataset_id adds each matching run once as an example", async () => {
    const project = await storeProject(db, ws);
    const target = (await createDataset(db, ws, { name: "from-rule" })).id as string;
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "collect", session_id: project, filter: 'eq(run_type, "llm")', add_to_dataset_id: target }),
    );
    const llm = await storeRun(db, ws, project, { runType: "llm", inputs: { prompt: "hi" }, outputs: { text: "hello" } });
    const chain = await storeRun(db, ws, project, { runType: "chain" });
    await startJobs(db, 1);
    try {
      const [report] = await evaluateRules(db, ws, [llm, chain]);
      assert.deepEqual(report.actions, { queued: 1 });
      assert.deepEqual((await evaluateRules(db, ws, [llm]))[0].actions, { queued: 0 });
      const logs = await until(async () => {
        const found = await ruleLogs(db, ws, rule.id, { offset: 0, limit: 10 });
        return found.length ? found : null;
      });
      const examples = await list(db, ws, { dataset: target });
      assert.deepEqual(
        examples.map((e) => [e.inputs, e.outputs, e.source_run_id]),
        [[{ prompt: "hi" }, { text: "hello" }, llm]],
      );
      assert.match(JSON.stringify(logs), new RegExp(`example ${examples[0].id}`));
      await deleteDataset(db, ws, target);
      const later = await storeRun(db, ws, project, { runType: "llm" });
      assert.deepEqual((await evaluateRules(db, ws, [later]))[0].actions, { queued: 1 });
      const [failed] = await until(async () => {
        const found = (await ruleLogs(db, ws, rule.id, { offset: 0, limit: 10 })).filter((l) => l.run_id === later);
        return found.length ? found : null;
      });
      assert.deepEqual([failed.outcome, failed.attempts], ["error", 1], "a deleted dataset fails the action, logged, not retried");
    } finally {
      await stopJobs();
    }
  });
});
