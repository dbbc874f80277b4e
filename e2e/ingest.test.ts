import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { Client, RunTree } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";
import { multipartBody } from "./harness/multipart";

describe("ingest with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  const readRun = (id: string) => call(server, "GET", `/runs/${id}`);
  const until = (id: string, ready: (run: any) => boolean) =>
    eventually(async () => {
      const r = await readRun(id);
      return r.status === 200 && ready(r.body) ? r.body : null;
    });

  test("/info needs no key, works under both prefixes, with a trailing slash or a bare ?", async () => {
    for (const path of ["/info", "/api/v1/info", "/info/", "/info?"]) {
      const r = await fetch(`${server.url}${path}`, { redirect: "manual" });
      assert.equal(r.status, 200, path);
      const info = await r.json();
      assert.equal(info.batch_ingest_config.use_multipart_endpoint, true);
      assert.equal(info.instance_flags.dataset_examples_multipart_enabled, true);
      assert.ok(info.batch_ingest_config.size_limit > 0);
    }
  });

  test("a RunTree trace goes through multipart and reads back whole", async () => {
    const root = new RunTree({ name: "agent", run_type: "chain", inputs: { question: "2+2?" }, client, project_name: "e2e-multipart" });
    await root.postRun();
    const llm = root.createChild({
      name: "ChatOpenAI",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "2+2?" }] },
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    });
    await llm.postRun();
    await llm.end({
      choices: [{ message: { role: "assistant", content: "4" } }],
      usage_metadata: { input_tokens: 12, output_tokens: 1, total_tokens: 13 },
    });
    await llm.patchRun();
    await root.end({ answer: "4" });
    await root.patchRun();
    await client.awaitPendingTraceBatches();

    const stored = await until(root.id, (r) => r.outputs?.answer === "4");
    assert.equal(stored.parent_run_id, null);
    assert.equal(stored.trace_id, root.id);
    assert.equal(stored.dotted_order, root.dotted_order);
    assert.equal(stored.start_time.replace(/[-:.Z]/g, ""), root.dotted_order.split("Z")[0].replace(/[-:.]/g, ""));
    const child = await until(llm.id, (r) => r.status === "success");
    assert.equal(child.parent_run_id, root.id);
    assert.equal(child.total_tokens, 13);
    assert.ok(child.total_cost > 0);
    const viaSdk = await client.readRun(llm.id);
    assert.equal(viaSdk.trace_id, root.id);
    assert.equal(stored.total_tokens, 13, "the root answers its trace's tokens");
    assert.equal(stored.total_cost, child.total_cost);
  });

  test("createRun then updateRun, one request each", async () => {
    const plain = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    const id = randomUUID();
    await plain.createRun({ id, name: "single", run_type: "tool", inputs: { a: 1 }, project_name: "e2e-single" } as never);
    await plain.updateRun(id, { outputs: { b: 2 }, end_time: Date.now(), events: [{ name: "new_token", time: new Date().toISOString() }] });
    const stored = await until(id, (r) => r.status === "success");
    assert.deepEqual(stored.outputs, { b: 2 });
    assert.ok(stored.first_token_time);
  });

  test("/runs/batch with posts and patches", async () => {
    const id = randomUUID();
    const r = await call(server, "POST", "/runs/batch", {
      post: [{ id, name: "batched", run_type: "chain", start_time: new Date().toISOString(), inputs: { x: 1 } }],
      patch: [{ id, end_time: new Date().toISOString(), outputs: { y: 2 } }],
    });
    assert.equal(r.status, 202);
    const stored = await until(id, (run) => run.status === "success");
    assert.deepEqual(stored.outputs, { y: 2 });
  });

  test("attachments are stored and served back through signed links", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const run = new RunTree({
      name: "with-file",
      run_type: "chain",
      inputs: { q: 1 },
      client,
      attachments: { picture: ["image/png", new Uint8Array(png)] } as never,
    });
    await run.postRun();
    await run.end({ ok: true });
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    const stored = await until(run.id, (r) => !!r.s3_urls?.["attachment.picture"]);
    const link = stored.s3_urls["attachment.picture"];
    assert.equal(link.mime_type, "image/png");
    const download = await fetch(new URL(link.presigned_url, server.url));
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), png);
    const tampered = await fetch(
      new URL(
        link.presigned_url.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === "x" ? "y" : "x"}`),
        server.url,
      ),
    );
    assert.equal(tampered.status, 404);
  });

  test("gzip-compressed multipart bodies are accepted", async () => {
    const id = randomUUID();
    const { body, contentType } = multipartBody([
      {
        name: `post.${id}`,
        json: { id, name: "gz", run_type: "chain", start_time: new Date().toISOString(), trace_id: id, dotted_order: undefined },
      },
      { name: `post.${id}.inputs`, json: { big: "x".repeat(10_000) } },
    ]);
    const r = await call(server, "POST", "/runs/multipart", gzipSync(body), { "content-type": contentType, "content-encoding": "gzip" });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const stored = await until(id, () => true);
    assert.equal(stored.inputs.big.length, 10_000);
  });

  test("bad input is a clear 4xx and earlier runs are kept", async () => {
    const kept = randomUUID();
    await call(server, "POST", "/runs", { id: kept, name: "kept", run_type: "chain" });
    const notJson = await call(server, "POST", "/runs/batch", "{post: [", { "content-type": "application/json" });
    assert.equal(notJson.status, 400);
    assert.match(notJson.body.detail, /not valid JSON/);
    const badId = await call(server, "POST", "/runs", { id: "nope", name: "x" });
    assert.equal(badId.status, 400);
    assert.match(badId.body.detail, /id: must be a UUID/);
    const badTime = await call(server, "POST", "/runs", { id: randomUUID(), name: "x", start_time: "last tuesday" });
    assert.equal(badTime.status, 400);
    assert.match(badTime.body.detail, /start_time/);
    const noKey = await fetch(`${server.url}/runs/${kept}`);
    assert.equal(noKey.status, 401);
    assert.match((await noKey.json()).detail, /x-api-key/);
    const badKey = await call({ ...server, apiKey: "tl_us_wrong" }, "GET", `/runs/${kept}`);
    assert.equal(badKey.status, 401);
    const euKey = await call({ ...server, apiKey: "tl_eu_whatever" }, "GET", `/runs/${kept}`);
    assert.equal(euKey.status, 401);
    assert.match(euKey.body.detail, /EU region/);
    assert.equal((await readRun(kept)).status, 200);
    assert.equal((await readRun(randomUUID())).status, 404);
  });
});

describe("ingest limits", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { MAX_BODY_BYTES: "20000", MAX_DECOMPRESSED_BYTES: "50000", MAX_BATCH_RUNS: "5" } });
  });
  after(async () => server?.stop());

  test("body, decompressed size and batch size limits answer 413 with the limit", async () => {
    const big = await call(server, "POST", "/runs", { id: randomUUID(), name: "x", inputs: { s: "y".repeat(30_000) } });
    assert.equal(big.status, 413);
    assert.match(big.body.detail, /limit/);
    const bomb = gzipSync(JSON.stringify({ post: [{ id: randomUUID(), name: "x", inputs: { s: "z".repeat(200_000) } }] }));
    const decompressed = await call(server, "POST", "/runs/batch", bomb, {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    assert.equal(decompressed.status, 413);
    assert.match(decompressed.body.detail, /Decompressed/);
    const many = await call(server, "POST", "/runs/batch", { post: Array.from({ length: 6 }, () => ({ id: randomUUID(), name: "x" })) });
    assert.equal(many.status, 413);
    assert.match(many.body.detail, /limit is 5/);
    const info = await call(server, "GET", "/info");
    assert.equal(info.body.limits.max_runs_per_request, 5);
  });
});
