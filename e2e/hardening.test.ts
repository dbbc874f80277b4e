/**
 * Hardening (issue 12): bodies up to the advertised limits arrive whole on every ingest path, a body
 * declared too large is refused at once, and JSON endpoints refuse what a cross-site form can post.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { Client } from "langsmith";
import { newUser, ui } from "./harness/auth";
import { call } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

const MiB = 1024 * 1024;
/** Text that does not compress, as an index row would have to hold it. */
const noise = (length: number) => randomBytes(length).toString("base64").slice(0, length);

describe("hardening: sizes, content types", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  /** `count` runs whose inputs together make about `bytes` of JSON. */
  function bigRuns(project: string, count: number, bytes: number) {
    const filler = "x".repeat(Math.ceil(bytes / count));
    return Array.from({ length: count }, (_, i) => {
      const id = randomUUID();
      return {
        id,
        trace_id: id,
        dotted_order: `20260101T000000000000Z${id}`,
        name: `big-${i}`,
        run_type: "chain",
        session_name: project,
        start_time: new Date().toISOString(),
        inputs: { i, filler },
      };
    });
  }

  test("a 15 MiB batch and a 15 MiB multipart body are stored whole", async () => {
    const project = `big-${randomUUID().slice(0, 8)}`;
    const batch = bigRuns(project, 30, 15 * MiB);
    const body = JSON.stringify({ post: batch });
    assert.ok(body.length > 15 * MiB && body.length < 20 * MiB, String(body.length));
    const r = await call(server, "POST", "/runs/batch", body, { "content-type": "application/json" });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const last = await client.readRun(batch[29].id);
    assert.equal(
      (last.inputs as { filler: string }).filler.length,
      batch[29].inputs.filler.length,
      "the last run of the body arrived whole",
    );

    const parts = bigRuns(project, 30, 15 * MiB).map((run) => ({ name: `post.${run.id}`, json: run }));
    const multipart = multipartBody(parts);
    assert.ok(multipart.body.length > 15 * MiB);
    const m = await fetch(`${server.url}/runs/multipart`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": multipart.contentType },
      body: new Uint8Array(multipart.body),
    });
    assert.equal(m.status, 202, await m.text());
    const lastPart = parts[29].json as { id: string };
    assert.equal((await client.readRun(lastPart.id)).name, "big-29");
  });

  test("a body declared larger than the limit is refused with 413 at once, before it is sent", async () => {
    const url = new URL(`${server.url}/runs/batch`);
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "x-api-key": server.apiKey, "content-type": "application/json", "content-length": String(40 * MiB) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    assert.equal(status, 413);
    assert.ok(Date.now() - started < 10_000, "answered without waiting for the body");
  });

  test("JSON endpoints refuse text/plain and form bodies with 415; JSON types pass", async () => {
    const run = { id: randomUUID(), name: "typed", run_type: "chain", start_time: new Date().toISOString(), inputs: {} };
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const r = await call(server, "POST", "/runs", JSON.stringify(run), { "content-type": type });
      assert.equal(r.status, 415, type);
      assert.match(r.body.detail, /not JSON/);
    }
    assert.equal(
      (await call(server, "POST", "/runs", JSON.stringify(run), { "content-type": "application/json; charset=utf-8" })).status,
      202,
    );
  });

  test("a batch of 100 with bad runs in it: the bad ones are listed (207) and logged, the rest stored", async () => {
    const project = `mixed-${randomUUID().slice(0, 8)}`;
    const bea = await newUser(server.url, `bea-${randomUUID()}@example.com`, "bea-password-1");
    const other = {
      url: server.url,
      apiKey: (await ui(bea, "POST", "/api-key", { kind: "service", description: "other workspace" })).body.key as string,
    };
    {
      const foreign = randomUUID();
      assert.equal(
        (
          await call(other, "POST", "/runs", {
            id: foreign,
            name: "elsewhere",
            run_type: "chain",
            start_time: new Date().toISOString(),
            inputs: {},
          })
        ).status,
        202,
      );
      const good = bigRuns(project, 96, 10_000);
      const nul = { ...bigRuns(project, 1, 10)[0], name: "nul\u0000name", inputs: { "k\u0000": "v\u0000\ud800" } };
      const badTime = { ...bigRuns(project, 1, 10)[0], start_time: "1e20" };
      const hugeTokens = {
        ...bigRuns(project, 1, 10)[0],
        run_type: "llm",
        outputs: { usage_metadata: { input_tokens: 2 ** 31, output_tokens: 1, total_tokens: 2 ** 31 + 1 } },
      };
      const longProject = { ...bigRuns(project, 1, 10)[0], session_name: "p".repeat(8000) };
      const taken = { ...bigRuns(project, 1, 10)[0], id: foreign, trace_id: foreign, dotted_order: `20260101T000000000000Z${foreign}` };
      const r = await call(server, "POST", "/runs/batch", { post: [...good, nul, badTime, hugeTokens, longProject, taken] });
      assert.equal(r.status, 207, JSON.stringify(r.body));
      const refused = new Map((r.body.errors as { id: string; detail: string }[]).map((e) => [e.id, e.detail]));
      assert.deepEqual(
        [...refused.keys()].sort(),
        [badTime.id, hugeTokens.id, longProject.id, taken.id].sort(),
        JSON.stringify({
          badTime: badTime.id,
          hugeTokens: hugeTokens.id,
          longProject: longProject.id,
          taken: taken.id,
          refused: [...refused],
        }),
      );
      assert.match(refused.get(taken.id)!, /already exists; send it with a new id/);
      assert.match(refused.get(hugeTokens.id)!, /whole numbers from 0/);
      assert.match(refused.get(longProject.id)!, /at most 1,000 characters/);
      const stored = await client.readRun(nul.id);
      assert.equal(stored.name, "nul\u0000name", "U+0000 is stored and read back as sent");
      assert.deepEqual(stored.inputs, { "k\u0000": "v\u0000\ud800" });
      const found: string[] = [];
      for await (const run of client.listRuns({ projectName: project, filter: 'eq(name, "nul\u0000name")' })) found.push(run.id);
      assert.deepEqual(found, [nul.id], "a filter finds the name as it was sent");
      assert.equal((await client.readRun(good[95].id)).name, good[95].name);
      const log = await call(server, "GET", "/runs/ingest-errors");
      assert.equal(log.status, 200);
      assert.ok(
        [badTime.id, hugeTokens.id, taken.id].every((id) => log.body.some((e: { run_id: string }) => e.run_id === id)),
        JSON.stringify(log.body),
      );
      const single = await call(server, "POST", "/runs", taken);
      assert.equal(single.status, 409, "a single run with another workspace's id is a 409 naming it");
      assert.equal(single.body.detail, `Run ${foreign} already exists; send it with a new id.`, "not where it exists");
      // The SDK's updateRun (a PATCH): as if the run were unknown here.
      await assert.rejects(
        client.updateRun(foreign, { outputs: { stolen: true }, end_time: Date.now() }),
        (e: Error & { status?: number }) => e.status === 404 && e.message.includes(`Run ${foreign} not found.`),
      );
    }
  });

  test("over-long names and unknown run types (issues 35, 36): refused alone on every path, and the rollups keep folding", async () => {
    const project = `limits-${randomUUID().slice(0, 8)}`;
    const run = (extra: Record<string, unknown> = {}) => ({
      id: randomUUID(),
      name: "ok",
      run_type: "chain",
      session_name: project,
      start_time: new Date().toISOString(),
      inputs: {},
      ...extra,
    });
    const longName = await call(server, "POST", "/runs", run({ name: noise(3000) }));
    assert.equal(longName.status, 400, JSON.stringify(longName.body));
    assert.match(longName.body.detail, /name: a run name is at most 500 characters; this one has 3,000/);
    const agent = await call(server, "POST", "/runs", run({ run_type: "agent" }));
    assert.equal(agent.status, 422, JSON.stringify(agent.body));
    assert.match(
      agent.body.detail,
      /run_type "agent" is not a run type; use one of tool, chain, llm, retriever, embedding, prompt, parser/,
    );
    const stored = run();
    assert.equal((await call(server, "POST", "/runs", stored)).status, 202);
    assert.equal((await call(server, "PATCH", `/runs/${stored.id}`, { name: noise(3000) })).status, 400);
    assert.equal((await call(server, "PATCH", `/runs/${stored.id}`, { run_type: "agent" })).status, 422);

    const good = run();
    const model = run({ run_type: "llm", extra: { metadata: { ls_model_name: noise(8000), ls_provider: noise(8000) } } });
    const [badName, badType] = [run({ name: noise(3000) }), run({ run_type: noise(8000) })];
    const batch = await call(server, "POST", "/runs/batch", { post: [good, badName, badType, model] });
    assert.equal(batch.status, 207, JSON.stringify(batch.body));
    assert.deepEqual(batch.body.errors.map((e: { id: string }) => e.id).sort(), [badName.id, badType.id].sort());
    const multi = [run(), run({ name: noise(3000) }), run({ run_type: "agent" })];
    const { body, contentType } = multipartBody(multi.map((r) => ({ name: `post.${r.id}`, json: r })));
    const multipart = await call(server, "POST", "/runs/multipart", body, { "content-type": contentType });
    assert.equal(multipart.status, 207, JSON.stringify(multipart.body));
    assert.deepEqual(multipart.body.errors.map((e: { id: string }) => e.id).sort(), [multi[1].id, multi[2].id].sort());
    for (const id of [good.id, model.id, multi[0].id]) assert.equal((await call(server, "GET", `/runs/${id}`)).status, 200);

    // The fold runs every 5 s (ROLLUP_COMPACT_SECONDS): it merged everything, for every workspace.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    assert.doesNotMatch(server.output(), /rollup-compact failed|Rollup fold:/);
  });

  test("bad input anywhere is a clear 4xx that says what was wrong, never a 500", async () => {
    const now = new Date().toISOString();
    const run = (extra: Record<string, unknown>) => ({
      id: randomUUID(),
      name: "x",
      run_type: "chain",
      start_time: now,
      inputs: {},
      ...extra,
    });
    const cases: [string, string, unknown][] = [
      ["POST", "/runs/query", { filter: 'like(name, "\\")' }],
      ["PATCH", "/runs/not-a-uuid", { outputs: {} }],
      ["GET", "/runs/%FF", undefined],
      ["POST", "/runs", JSON.stringify(run({ name: "deep", inputs: "DEEP" })).replace('"DEEP"', "[".repeat(10_000) + "]".repeat(10_000))],
      ["POST", "/runs/query", { filter: "and(".repeat(20_000) + 'eq(name, "x")' + ")".repeat(20_000) }],
      ["POST", "/runs/query", { filter: `search("${"a".repeat(100_000)}")` }],
      ["POST", "/runs/query", { query: "a".repeat(100_000) }],
      ["POST", "/runs", run({ start_time: 1e20 })],
      ["POST", "/runs", run({ run_type: "llm", outputs: { usage_metadata: { input_tokens: -5, output_tokens: 1, total_tokens: 1 } } })],
      ["POST", "/runs", run({ run_type: "llm", outputs: { usage_metadata: { input_tokens: 1.5, output_tokens: 1, total_tokens: 3 } } })],
      ["POST", "/runs", run({ extra: { metadata: { thread_id: noise(8000) } } })],
      ["POST", "/runs", run({ tags: [noise(8000)] })],
      ["POST", "/runs", run({ session_name: noise(8000) })],
      ["POST", "/feedback/tokens", { run_id: randomUUID(), feedback_key: "k" }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(server, method, path, body, { "content-type": "application/json" });
      const what = `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`;
      assert.ok(r.status >= 400 && r.status < 500, what);
      assert.equal(typeof r.body?.detail, "string", `${what} says what was wrong`);
    }
    assert.equal(
      (await call(server, "POST", "/runs/query", { filter: 'gt(start_time, "9999-12-31T23:59:59Z")' })).status,
      200,
      "a far-future time is a valid filter",
    );
  });

  test("U+0000 and lone surrogates in feedback and examples are stored and read back as sent", async () => {
    const text = "a\u0000b\ud800c\ue000";
    const feedback = await client.createFeedback(randomUUID(), "nul", { comment: text, value: { [text]: text } });
    const read = await client.readFeedback(feedback.id);
    assert.equal(read.comment, text);
    assert.deepEqual(read.value, { [text]: text });
    await client.updateFeedback(feedback.id, { comment: `${text}!`, correction: { [text]: text } });
    const updated = await client.readFeedback(feedback.id);
    assert.deepEqual([updated.comment, updated.correction], [`${text}!`, { [text]: text }], "an update stores them as sent too");
    const dataset = await client.createDataset(`nul-${randomUUID().slice(0, 8)}`);
    const example = await client.createExample({ question: text }, { answer: text }, { datasetId: dataset.id });
    assert.deepEqual((await client.readExample(example.id)).inputs, { question: text });
    await client.updateExample(example.id, { metadata: { note: "edited" } });
    const edited = await client.readExample(example.id);
    assert.deepEqual([edited.inputs, edited.outputs], [{ question: text }, { answer: text }], "an edit keeps the content as sent");
  });
});
