import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

/**
 * Ingest answers the SDKs' own suites rely on (issue 36): the Python suite's
 * test_multipart_ingest_create_wrong_type expects a request whose every run is refused to be a 4xx
 * the client warns about, not a 2xx it takes for success.
 */
describe("a batch whose every run is refused", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  const run = (extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    name: "root",
    run_type: "chain",
    start_time: new Date().toISOString(),
    inputs: { q: 1 },
    ...extra,
  });

  test("the real client's multipartIngestRuns of an `agent` run: 422 naming it, and the client warns", async () => {
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    const agent = run({ run_type: "agent", session_name: `wrong-type-${randomUUID().slice(0, 8)}` });
    // The client's multipart ingest wants a trace's placement: a root of its own trace.
    const dottedTime = agent.start_time.replace(/[-:]/g, "").replace(/\.(\d{3})Z$/, "$1000Z");
    Object.assign(agent, { trace_id: agent.id, dotted_order: `${dottedTime}${agent.id}` });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
    try {
      await client.multipartIngestRuns({ runCreates: [agent as never] });
    } finally {
      console.warn = warn;
    }
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /422/);
    assert.match(
      warnings[0],
      new RegExp(`nothing stored .*${agent.id}: Invalid post\\[0\\]: run_type .{1,2}agent.{1,2} is not a run type`),
    );
    assert.equal((await call(server, "GET", `/runs/${agent.id}`)).status, 404);
    const log = await call(server, "GET", "/runs/ingest-errors");
    assert.ok(JSON.stringify(log.body).includes(agent.id), JSON.stringify(log.body));
  });

  test("raw batch and multipart: 422 with errors when none was stored, 207 when some were, 202 when all were", async () => {
    const bad = [run({ run_type: "agent" }), run({ name: "n".repeat(600) })];
    const batch = await call(server, "POST", "/runs/batch", { post: bad });
    assert.equal(batch.status, 422, JSON.stringify(batch.body));
    assert.match(batch.body.detail, /^All 2 runs of this request refused, nothing stored/);
    assert.deepEqual(batch.body.errors.map((e: { id: string }) => e.id).sort(), bad.map((r) => r.id).sort());

    const good = run();
    const mixed = await call(server, "POST", "/runs/batch", { post: [good, run({ run_type: "agent" })] });
    assert.equal(mixed.status, 207, JSON.stringify(mixed.body));
    assert.equal((await call(server, "GET", `/runs/${good.id}`)).status, 200);

    const lone = run({ run_type: "agent" });
    const one = multipartBody([{ name: `post.${lone.id}`, json: lone }]);
    const multipart = await call(server, "POST", "/runs/multipart", one.body, { "content-type": one.contentType });
    assert.equal(multipart.status, 422, JSON.stringify(multipart.body));
    assert.match(multipart.body.detail, new RegExp(`^The run of this request refused, nothing stored .*${lone.id}`));

    // Feedback in the same request was stored: that is not "nothing stored".
    const feedback = { id: randomUUID(), run_id: good.id, key: "kept", score: 1 };
    const withFeedback = multipartBody([
      { name: `post.${lone.id}`, json: lone },
      { name: `feedback.${feedback.id}`, json: feedback },
    ]);
    const partial = await call(server, "POST", "/runs/multipart", withFeedback.body, { "content-type": withFeedback.contentType });
    assert.equal(partial.status, 207, JSON.stringify(partial.body));
    const ok = await call(server, "POST", "/runs/batch", { post: [run()] });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
  });
});
