import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { hashToken, sealToken } from "../core/tokens";
import { feedbackCreate, feedbackListQuery, feedbackUpdate } from "./schema";
import { createFeedback, deleteFeedback, listFeedback, readFeedback, storeFeedbackParts, updateFeedback } from "./service";
import { feedbackStats } from "./stats";
import { createFeedbackToken, listFeedbackTokens, submitWithToken, tokenCreate } from "./tokens";
import { attachFeedbackToRuns } from "./store";
import { storeProject, storeRun } from "./test-runs";

const create = (db: Sql, ws: string, body: unknown) => createFeedback(db, ws, feedbackCreate.parse(body));
const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

withTestDatabases("feedback", (open) => {
  let db: Sql;
  let ws: string;
  let other: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "feedback tests")).id;
    other = (await createWorkspace(db.prisma, "someone else")).id;
  });

  test("feedback on a stored run takes its trace and project; read, update, delete", async () => {
    const runId = randomUUID();
    await storeRun(db, ws, await storeProject(db, ws), { id: runId });
    const made = await create(db, ws, {
      run_id: runId,
      key: "correctness",
      score: true,
      comment: "ok",
      feedback_source: { type: "api", metadata: {} },
    });
    assert.equal(made.trace_id, runId);
    assert.ok(made.session_id);
    assert.equal(made.score, 1);
    assert.match(made.created_at!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const changed = await updateFeedback(db, ws, made.id, feedbackUpdate.parse({ score: 0.25, value: "meh" }));
    assert.equal(changed.score, 0.25);
    assert.equal(changed.value, "meh");
    assert.equal(changed.comment, "ok", "fields not sent are kept");
    const cleared = await updateFeedback(db, ws, made.id, feedbackUpdate.parse({ comment: null, value: null }));
    assert.equal(cleared.comment, null);
    assert.equal(cleared.value, null);
    assert.equal((await readFeedback(db, ws, made.id)).score, 0.25);

    await assert.rejects(readFeedback(db, other, made.id), status(404), "another workspace cannot see it");
    await assert.rejects(updateFeedback(db, other, made.id, {}), status(404));
    await assert.rejects(deleteFeedback(db, other, made.id), status(404));
    await deleteFeedback(db, ws, made.id);
    await assert.rejects(readFeedback(db, ws, made.id), status(404));
    await assert.rejects(readFeedback(db, ws, "not-a-uuid"), status(404));
  });

  test("feedback that arrives before its run is kept and attached when the run is stored", async () => {
    const runId = randomUUID();
    const early = await create(db, ws, { run_id: runId, key: "early", score: 1 });
    assert.equal(early.trace_id, null);
    await storeRun(db, ws, await storeProject(db, ws), { id: runId });
    assert.equal(await attachFeedbackToRuns(db, ws, [runId]), 1);
    const attached = await readFeedback(db, ws, early.id);
    assert.equal(attached.trace_id, runId);
    assert.ok(attached.session_id);
    assert.equal(await attachFeedbackToRuns(db, other, [runId]), 0, "another workspace's runs never attach");
  });

  test("multipart feedback parts are stored, re-sending one is harmless, bad ones are refused", async () => {
    const runId = randomUUID();
    const id = randomUUID();
    const part = { id, run_id: runId, trace_id: runId, key: "thumbs", value: "up", feedbackConfig: { type: "freeform" } };
    assert.equal(await storeFeedbackParts(db, ws, [part]), 1);
    assert.equal(await storeFeedbackParts(db, ws, [part, { ...part, value: "down" }]), 1);
    const stored = await readFeedback(db, ws, id);
    assert.equal(stored.value, "down");
    assert.deepEqual(stored.feedback_config, { type: "freeform" });
    assert.equal(stored.trace_id, runId);
    await assert.rejects(storeFeedbackParts(db, ws, [{ id: randomUUID(), run_id: runId }]), status(400), "a key is required");
    await assert.rejects(storeFeedbackParts(db, other, [part]), status(409), "an id owned by another workspace");
  });

  test("project feedback needs a project of this workspace; one of run or project is required", async () => {
    await assert.rejects(create(db, ws, { key: "x" }), status(400));
    await assert.rejects(create(db, ws, { key: "x", session_id: randomUUID() }), status(404));
    assert.throws(() => feedbackCreate.parse({ key: "", run_id: randomUUID() }));
    assert.throws(() => feedbackCreate.parse({ key: "k", run_id: "nope" }));
  });

  test("listing filters by run, key, source and project, newest first, with offset and limit", async () => {
    const a = randomUUID();
    const b = randomUUID();
    await create(db, ws, { run_id: a, key: "k1", score: 1, feedback_source: { type: "model" } });
    await create(db, ws, { run_id: a, key: "k2", score: 0 });
    await create(db, ws, { run_id: b, key: "k1", score: 0.5 });
    const q = (raw: Record<string, unknown>) => listFeedback(db, ws, feedbackListQuery.parse(raw));
    assert.equal((await q({ run: a })).length, 2);
    assert.equal((await q({ run: [a, b], key: "k1" })).length, 2);
    assert.deepEqual(
      (await q({ run: [a, b], source: "model" })).map((f) => f.key),
      ["k1"],
    );
    const page = await q({ run: [a, b], limit: "2", offset: "1" });
    assert.equal(page.length, 2);
    assert.equal((await q({ run: [a, b] }))[0].run_id, b, "newest first");
    assert.equal((await listFeedback(db, other, feedbackListQuery.parse({ run: a }))).length, 0);
  });

  test("feedback_stats per run and key: count, mean, stdev and categorical values", async () => {
    const runId = randomUUID();
    for (const score of [1, 0, 1, 0]) await create(db, ws, { run_id: runId, key: "acc", score });
    await create(db, ws, { run_id: runId, key: "label", value: "good" });
    await create(db, ws, { run_id: runId, key: "label", value: "good" });
    await create(db, ws, { run_id: runId, key: "label", value: "bad" });
    const stats = (await feedbackStats(db, ws, [runId])).get(runId)!;
    assert.deepEqual(stats.acc, { n: 4, avg: 0.5, stdev: 0.5, values: {} });
    assert.equal(stats.label.n, 3);
    assert.equal(stats.label.avg, null);
    assert.deepEqual(stats.label.values, { good: 2, bad: 1 });
    assert.equal((await feedbackStats(db, other, [runId])).size, 0);
  });

  test("presigned tokens: create, list, submit without a key, config bounds, expiry", async () => {
    const runId = randomUUID();
    await assert.rejects(
      createFeedbackToken(db, ws, tokenCreate.parse({ run_id: runId, feedback_key: "k" })),
      status(404),
      "only for a run this workspace holds",
    );
    await storeRun(db, ws, await storeProject(db, ws), { id: runId });
    await assert.rejects(
      createFeedbackToken(db, other, tokenCreate.parse({ run_id: runId, feedback_key: "k" })),
      status(404),
      "another workspace's run",
    );
    const made = await createFeedbackToken(
      db,
      ws,
      tokenCreate.parse({
        run_id: runId,
        feedback_key: "rating",
        feedback_config: { type: "continuous", min: 0, max: 5 },
        expires_in: { hours: 1 },
      }),
    );
    const token = made.url.split("/").pop()!;
    // A random UUID, not the link's id: the Python client's create_feedback_from_token(url) wants a UUID there.
    assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(token, made.id);
    assert.ok(Date.parse(made.expires_at!) > Date.now() + 3_500_000);
    assert.deepEqual(
      (await listFeedbackTokens(db, ws, runId, 0, 100)).map((t) => t.url),
      [made.url],
    );
    assert.equal((await listFeedbackTokens(db, other, runId, 0, 100)).length, 0);

    const given = await submitWithToken(db, token, { score: 4, comment: "nice" });
    assert.equal(given.key, "rating");
    assert.equal(given.run_id, runId);
    assert.equal(((await readFeedback(db, ws, given.id)).feedback_source as { type: string }).type, "app");
    assert.equal((given as Record<string, unknown>).session_id, undefined, "the link holder does not learn the project");
    await assert.rejects(submitWithToken(db, token, { score: 9 }), status(400), "outside the config's bounds");
    await assert.rejects(submitWithToken(db, `${token}x`, { score: 1 }), status(404));
    // The Python client names the link by its id (create_feedback_from_token checks for a UUID).
    const byId = await submitWithToken(db, made.id.toUpperCase(), { score: 3 });
    assert.equal(byId.key, "rating");
    assert.equal(byId.score, 3);
    await assert.rejects(submitWithToken(db, randomUUID(), { score: 1 }), status(404), "an id no link has");
    // A link made before links were UUIDs (32 random bytes, base64url) still takes feedback.
    const legacy = randomBytes(32).toString("base64url");
    await db.prisma.feedbackToken.create({
      data: {
        id: randomUUID(),
        workspaceId: ws,
        runId,
        feedbackKey: "legacy",
        tokenHash: hashToken(legacy),
        tokenSealed: sealToken(legacy),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    assert.equal((await submitWithToken(db, legacy, { score: 2 })).key, "legacy");
    const [row] = await db.query<{ token_hash: string }>({
      strings: ["SELECT token_hash FROM feedback_tokens WHERE id = ", ""],
      values: [made.id],
    });
    assert.notEqual(row.token_hash, token, "only a hash is stored");

    const expired = await createFeedbackToken(db, ws, tokenCreate.parse({ run_id: runId, feedback_key: "k", expires_in: { seconds: 1 } }));
    await new Promise((r) => setTimeout(r, 1100));
    await assert.rejects(submitWithToken(db, expired.url.split("/").pop()!, { score: 1 }), status(404));
    await assert.rejects(submitWithToken(db, expired.id, { score: 1 }), status(404), "an expired link by its id");
    await assert.rejects(
      createFeedbackToken(db, ws, tokenCreate.parse({ run_id: runId, feedback_key: "k", expires_at: "2001-01-01T00:00:00Z" })),
      status(400),
    );
  });
});
