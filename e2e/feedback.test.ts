import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call, eventually } from "./harness/http";
import { multipartBody } from "./harness/multipart";
import { startServer, type RunningServer } from "./harness/server";

describe("feedback with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  /** A finished run in its own trace; resolves once it is stored (its share status is readable). */
  async function storedRun(name = "graded", project = "e2e-feedback"): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    const r = await call(server, "POST", "/runs/batch", {
      post: [
        {
          id,
          trace_id: id,
          name,
          run_type: "chain",
          start_time: now,
          end_time: now,
          inputs: { q: 1 },
          outputs: { a: 2 },
          session_name: project,
        },
      ],
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    await eventually(async () => (await call(server, "GET", `/runs/${id}/share`)).status === 200);
    return id;
  }

  test("create, read, update, list and delete through the SDK", async () => {
    const runId = await storedRun();
    const made = await client.createFeedback(runId, "correctness", {
      score: 0.75,
      value: "mostly",
      comment: "close",
      correction: { answer: 3 },
    });
    const read = await client.readFeedback(made.id);
    assert.equal(read.run_id, runId);
    assert.equal(read.trace_id, runId);
    assert.equal(read.key, "correctness");
    assert.equal(read.score, 0.75);
    assert.equal(read.value, "mostly");
    assert.deepEqual(read.correction, { answer: 3 });
    assert.equal((read.feedback_source as { type: string }).type, "api");
    assert.ok((read as unknown as { session_id: string }).session_id, "the run's project is filled in");
    assert.match(String(read.created_at), /\.\d{6}Z$/);

    await client.updateFeedback(made.id, { score: 1, comment: "right after all" });
    const updated = await client.readFeedback(made.id);
    assert.equal(updated.score, 1);
    assert.equal(updated.comment, "right after all");
    assert.equal(updated.value, "mostly");

    await client.createFeedback(runId, "helpfulness", { score: 0, feedbackSourceType: "model" });
    const all = [];
    for await (const f of client.listFeedback({ runIds: [runId] })) all.push(f);
    assert.deepEqual(all.map((f) => f.key).sort(), ["correctness", "helpfulness"]);
    const byKey = [];
    for await (const f of client.listFeedback({ runIds: [runId], feedbackKeys: ["helpfulness"], feedbackSourceTypes: ["model"] }))
      byKey.push(f);
    assert.deepEqual(
      byKey.map((f) => f.key),
      ["helpfulness"],
    );

    await client.deleteFeedback(made.id);
    await assert.rejects(client.readFeedback(made.id), /not found|404/i);
  });

  test("feedback sent with a trace id travels in a multipart feedback part", async () => {
    const runId = await storedRun();
    const made = await client.createFeedback(runId, "batched", { score: 1, traceId: runId, comment: "via multipart" });
    await client.awaitPendingTraceBatches();
    const stored = await eventually(async () => {
      const r = await call(server, "GET", `/feedback/${made.id}`);
      return r.status === 200 ? r.body : null;
    });
    assert.equal(stored.comment, "via multipart");
    assert.equal(stored.trace_id, runId);
  });

  test("feedback that arrives before its run is kept, then joined to the run", async () => {
    const runId = randomUUID();
    const early = await call(server, "POST", "/feedback", { run_id: runId, key: "early", score: 1 });
    assert.equal(early.status, 200, JSON.stringify(early.body));
    assert.equal(early.body.trace_id, null);
    const id = randomUUID();
    const now = new Date().toISOString();
    const { body, contentType } = multipartBody([
      {
        name: `post.${runId}`,
        json: {
          id: runId,
          trace_id: runId,
          dotted_order: `${now.replace(/[-:.]/g, "").replace("Z", "000Z")}${runId}`,
          name: "late",
          run_type: "llm",
          start_time: now,
          session_name: "e2e-late",
        },
      },
      { name: `feedback.${id}`, json: { run_id: runId, trace_id: runId, key: "same-request", score: 0.5 } },
    ]);
    assert.equal((await call(server, "POST", "/runs/multipart", body, { "content-type": contentType })).status, 202);
    const joined = await call(server, "GET", `/feedback/${early.body.id}`);
    assert.equal(joined.body.trace_id, runId);
    assert.ok(joined.body.session_id);
    const sameRequest = await call(server, "GET", `/feedback/${id}`);
    assert.equal(sameRequest.body.session_id, joined.body.session_id);
  });

  test("a presigned link ends in a UUID, as the Python client's create_feedback_from_token(url) requires (issue 36)", async () => {
    const runId = await storedRun();
    const token = await client.createPresignedFeedbackToken(runId, "uuid_link");
    const last = new URL(token.url).pathname.split("/").pop() ?? "";
    assert.match(last, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const link of [token.url, `${server.url}/feedback/tokens/${token.id}`]) {
      const sent = await fetch(link, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ score: 1 }),
      });
      assert.equal(sent.status, 200, `${link}: ${await sent.text()}`);
    }
    const stored = [];
    for await (const f of client.listFeedback({ runIds: [runId], feedbackKeys: ["uuid_link"] })) stored.push(f.score);
    assert.deepEqual(stored, [1, 1]);
  });

  test("a presigned token lets someone without a key leave feedback until it expires", async () => {
    const runId = await storedRun();
    const token = await client.createPresignedFeedbackToken(runId, "user_rating", {
      feedbackConfig: { type: "continuous", min: 0, max: 5 } as never,
    });
    assert.ok(token.url.startsWith(server.url));
    assert.ok(Date.parse(token.expires_at) > Date.now());
    const viaGet = await fetch(`${token.url}?score=4&comment=${encodeURIComponent("great answer")}`);
    assert.equal(viaGet.status, 200, await viaGet.clone().text());
    const viaPost = await fetch(token.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ score: 2 }),
    });
    assert.equal(viaPost.status, 200);
    const outOfRange = await fetch(`${token.url}?score=9`);
    assert.equal(outOfRange.status, 400);
    const forged = await fetch(`${server.url}/feedback/tokens/${"A".repeat(43)}?score=1`);
    assert.equal(forged.status, 404);

    const given = [];
    for await (const f of client.listFeedback({ runIds: [runId], feedbackKeys: ["user_rating"] })) given.push(f);
    assert.deepEqual(given.map((f) => f.score).sort(), [2, 4]);
    assert.ok(given.every((f) => (f.feedback_source as { type: string }).type === "app"));
    const listed = [];
    for await (const t of client.listPresignedFeedbackTokens(runId)) listed.push(t);
    assert.deepEqual(
      listed.map((t) => t.url),
      [token.url],
    );

    const shortLived = await call(server, "POST", "/feedback/tokens", { run_id: runId, feedback_key: "k", expires_in: { seconds: 1 } });
    assert.equal(shortLived.status, 200);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal((await fetch(`${shortLived.body.url}?score=1`)).status, 404);
  });

  test("feedback configs", async () => {
    const config = await client.createFeedbackConfig({
      feedbackKey: "tone",
      feedbackConfig: {
        type: "categorical",
        categories: [
          { value: 0, label: "rude" },
          { value: 1, label: "kind" },
        ],
      } as never,
    });
    assert.equal(config.feedback_key, "tone");
    const again = await client.createFeedbackConfig({ feedbackKey: "tone", feedbackConfig: config.feedback_config as never });
    assert.equal(again.id, config.id);
    const listed = [];
    for await (const c of client.listFeedbackConfigs({ feedbackKeys: ["tone"] })) listed.push(c);
    assert.equal(listed.length, 1);
    const different = await call(server, "POST", "/feedback-configs", { feedback_key: "tone", feedback_config: { type: "freeform" } });
    assert.equal(different.status, 400);
  });

  test("bad requests are clear 4xx answers, and other workspaces' feedback is invisible", async () => {
    assert.equal((await call(server, "POST", "/feedback", { run_id: randomUUID() })).status, 400, "no key");
    assert.equal((await call(server, "POST", "/feedback", { key: "k" })).status, 400, "no run or project");
    assert.equal((await call(server, "POST", "/feedback", { key: "k", run_id: "nope" })).status, 400);
    assert.equal((await call(server, "POST", "/feedback", { key: "k", session_id: randomUUID() })).status, 404);
    assert.equal((await call(server, "GET", "/feedback/not-a-uuid")).status, 404);
    assert.equal((await call(server, "GET", `/feedback/${randomUUID()}`)).status, 404);
    assert.equal((await call(server, "PATCH", `/feedback/${randomUUID()}`, { score: 1 })).status, 404);
    assert.equal((await call(server, "DELETE", `/feedback/${randomUUID()}`)).status, 404);
    assert.equal((await call(server, "GET", "/feedback?limit=0")).status, 400);
    assert.equal((await call(server, "GET", "/feedback?run=nope")).status, 400);
    assert.equal(
      (await call(server, "POST", "/feedback/tokens", { run_id: randomUUID(), feedback_key: "k", expires_at: "2000-01-01T00:00:00Z" }))
        .status,
      400,
    );
    assert.equal((await fetch(`${server.url}/feedback`)).status, 401);
  });
});
