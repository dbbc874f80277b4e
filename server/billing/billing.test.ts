import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { resetEnv } from "../env";
import { errorResponse } from "../http/errors";
import { ingestRuns } from "../ingest/service";
import { drainOnce, deliveryFor } from "./drain";
import { deliverToUs } from "./internal";
import { applyUsageDeltas, billingUsage } from "./ledger";
import { recordUsage, unreportedUsage } from "./outbox";
import { receiveUsage } from "./service";

const SECRET = "billing-test-secret";
const saved = { REGION: process.env.REGION, US_BASE_URL: process.env.US_BASE_URL, INTERNAL_SECRET: process.env.INTERNAL_SECRET };
function setEnv(values: Record<string, string>) {
  Object.assign(process.env, values);
  resetEnv();
}
after(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnv();
});

const thisMonth = () => new Date().toISOString().slice(0, 7);
const monthOf = (usage: Awaited<ReturnType<typeof billingUsage>>, month = thisMonth()) =>
  usage.months.find((m) => m.month === month) ?? { runs: 0, traces: 0 };
const outbox = (db: Sql, ws: string) =>
  db.query<{ runs: number; traces: number; attempts: number; delivered: boolean; last_error: string | null }>(sql`
    SELECT runs::float8 AS runs, traces::float8 AS traces, attempts, delivered_at IS NOT NULL AS delivered, last_error
    FROM billing_usage_outbox WHERE workspace_id = ${ws} ORDER BY created_at, id`);
const fast = { baseMs: 1, capMs: 1 };
const settle = () => new Promise((r) => setTimeout(r, 10));

/**
 * The US deployment's internal endpoint as a real HTTP server over receiveUsage, with switches that
 * fail a delivery before it is applied ("down") or after it was applied but before the answer
 * reaches the sender ("lose-answer").
 */
function internalEndpoint(db: Sql) {
  const state = { mode: "up" as "up" | "down" | "lose-answer", requests: 0 };
  const server: Server = createServer(async (req, res) => {
    state.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (state.mode === "down") return req.socket.destroy();
    let response: Response;
    try {
      response = Response.json(await receiveUsage(db, (req.headers["x-internal-secret"] as string) ?? null, Buffer.concat(chunks)));
    } catch (error) {
      response = errorResponse(error);
    }
    if (state.mode === "lose-answer") return req.socket.destroy();
    res.writeHead(response.status, { "content-type": "application/json" });
    res.end(await response.text());
  });
  return { state, server };
}

withTestDatabases("billing", (open) => {
  let db: Sql;
  before(async () => {
    db = (await open()).sql;
    setEnv({ REGION: "us", INTERNAL_SECRET: SECRET });
  });

  test("ingest records runs created and traces begun in its transaction; patches and repeats add nothing", async () => {
    const ws = (await createWorkspace(db.prisma, "billing ingest")).id;
    const root = randomUUID();
    const child = randomUUID();
    await ingestRuns(db, ws, {
      post: [
        {
          id: root,
          trace_id: root,
          name: "root",
          run_type: "chain",
          start_time: "2026-11-01T10:00:00Z",
          dotted_order: `20261101T100000000000Z${root}`,
        },
        {
          id: child,
          trace_id: root,
          parent_run_id: root,
          name: "llm",
          run_type: "llm",
          start_time: "2026-11-01T10:00:01Z",
          dotted_order: `20261101T100000000000Z${root}.20261101T100001000000Z${child}`,
        },
      ],
    });
    await ingestRuns(db, ws, { patch: [{ id: child, end_time: "2026-11-01T10:00:02Z", outputs: { a: 1 } }] });
    await ingestRuns(db, ws, { post: [{ id: root, name: "root", run_type: "chain", start_time: "2026-11-01T10:00:00Z" }] });
    assert.deepEqual(
      (await outbox(db, ws)).map((r) => [r.runs, r.traces]),
      [[2, 1]],
    );
    assert.deepEqual(await unreportedUsage(db, ws).then(({ runs, traces }) => ({ runs, traces })), { runs: 2, traces: 1 });
  });

  test("usage recorded in a transaction that rolls back is not recorded", async () => {
    const ws = (await createWorkspace(db.prisma, "billing rollback")).id;
    await assert.rejects(
      db.tx(async (tx) => {
        await recordUsage(tx, ws, { runs: 5, traces: 1 });
        throw new Error("ingest failed");
      }),
      /ingest failed/,
    );
    assert.equal((await outbox(db, ws)).length, 0);
  });

  test("in the US the drain counts the outbox into the monthly usage once", async () => {
    const ws = (await createWorkspace(db.prisma, "billing us")).id;
    await recordUsage(db, ws, { runs: 3, traces: 1 });
    await recordUsage(db, ws, { runs: 4, traces: 2 });
    await drainOnce(db, deliveryFor(db));
    const usage = await billingUsage(db, ws);
    assert.deepEqual(monthOf(usage), { month: thisMonth(), runs: 7, traces: 3 });
    assert.equal(usage.plan.id, "free");
    assert.equal(usage.region, "us");
    assert.ok((await outbox(db, ws)).every((r) => r.delivered));
    assert.deepEqual((await drainOnce(db, deliveryFor(db))).delivered, 0);
    assert.deepEqual(monthOf(await billingUsage(db, ws)), { month: thisMonth(), runs: 7, traces: 3 });
    assert.deepEqual(await unreportedUsage(db, ws).then(({ runs, traces }) => ({ runs, traces })), { runs: 0, traces: 0 });
  });

  test("applying the same delta ids again, or twice in one batch, counts them once", async () => {
    const ws = randomUUID(); // an EU workspace: unknown to this database except through billing
    const deltas = [
      { id: randomUUID(), workspace_id: ws, month: "2026-10-01", runs: 10, traces: 2 },
      { id: randomUUID(), workspace_id: ws, month: "2026-11-01", runs: 1, traces: 1 },
    ];
    assert.deepEqual(await applyUsageDeltas(db, "eu", [...deltas, deltas[0]]), { applied: 2, duplicates: 1 });
    assert.deepEqual(await applyUsageDeltas(db, "eu", deltas), { applied: 0, duplicates: 2 });
    const usage = await billingUsage(db, ws);
    assert.equal(usage.region, "eu");
    assert.deepEqual(usage.months, [
      { month: "2026-11", runs: 1, traces: 1 },
      { month: "2026-10", runs: 10, traces: 2 },
    ]);
  });

  test("EU outbox over HTTP: a failed delivery and a lost answer are retried; nothing is lost or counted twice", async () => {
    const us = internalEndpoint(db);
    await new Promise<void>((r) => us.server.listen(0, "127.0.0.1", r));
    try {
      setEnv({ US_BASE_URL: `http://127.0.0.1:${(us.server.address() as AddressInfo).port}` });
      const ws = randomUUID();
      await recordUsage(db, ws, { runs: 2, traces: 1 });
      await recordUsage(db, ws, { runs: 3, traces: 0 });

      us.state.mode = "down";
      let result = await drainOnce(db, deliverToUs, fast);
      assert.equal(result.failed, 2);
      assert.match(result.error!, /socket hang up|ECONNRESET|fetch failed|other side closed/);
      assert.deepEqual(monthOf(await billingUsage(db, ws)), { runs: 0, traces: 0 });
      assert.ok((await outbox(db, ws)).every((r) => !r.delivered && r.attempts === 1 && r.last_error));

      await settle();
      us.state.mode = "lose-answer";
      result = await drainOnce(db, deliverToUs, fast);
      assert.equal(result.failed, 2);
      assert.deepEqual(monthOf(await billingUsage(db, ws)), { month: thisMonth(), runs: 5, traces: 1 });
      assert.ok((await outbox(db, ws)).every((r) => !r.delivered && r.attempts === 2));

      await settle();
      us.state.mode = "up";
      result = await drainOnce(db, deliverToUs, fast);
      assert.deepEqual(result, { delivered: 2, failed: 0 });
      assert.deepEqual(monthOf(await billingUsage(db, ws)), { month: thisMonth(), runs: 5, traces: 1 });
      assert.ok((await outbox(db, ws)).every((r) => r.delivered && r.attempts === 3 && r.last_error === null));
      assert.equal(us.state.requests, 3);

      // Nothing due: no request at all.
      await drainOnce(db, deliverToUs, fast);
      assert.equal(us.state.requests, 3);
    } finally {
      await new Promise((r) => us.server.close(r));
    }
  });

  test("a failed delivery waits with exponential backoff before it is due again", async () => {
    const ws = randomUUID();
    await recordUsage(db, ws, { runs: 1, traces: 1 });
    const fail = async () => {
      throw new Error("US deployment unreachable");
    };
    await drainOnce(db, fail, { baseMs: 60_000, capMs: 600_000 });
    assert.equal((await drainOnce(db, fail, { baseMs: 60_000, capMs: 600_000 })).failed, 0, "not due again yet");
    const [row] = await db.query<{ wait: number; last_error: string }>(sql`
      SELECT EXTRACT(EPOCH FROM next_attempt_at - now())::float8 AS wait, last_error FROM billing_usage_outbox WHERE workspace_id = ${ws}`);
    assert.ok(row.wait > 50 && row.wait <= 60, `waits about a minute, not ${row.wait}s`);
    assert.equal(row.last_error, "US deployment unreachable");
    await db.query(sql`DELETE FROM billing_usage_outbox WHERE workspace_id = ${ws}`);
  });

  test("the internal endpoint wants the shared secret and exists only in the US deployment", async () => {
    const body = Buffer.from(JSON.stringify({ region: "eu", deltas: [] }));
    await assert.rejects(
      receiveUsage(db, "wrong", body),
      (e: { status: number; detail: string }) => e.status === 401 && /x-internal-secret/.test(e.detail),
    );
    await assert.rejects(receiveUsage(db, null, body), (e: { status: number }) => e.status === 401);
    await assert.rejects(
      receiveUsage(db, SECRET, Buffer.from('{"region":"eu","deltas":[{"id":"x"}]}')),
      (e: { status: number }) => e.status === 400,
    );
    assert.deepEqual(await receiveUsage(db, SECRET, body), { applied: 0, duplicates: 0 });
    setEnv({ REGION: "eu", US_BASE_URL: "https://us.tracelight.example" });
    try {
      await assert.rejects(
        receiveUsage(db, SECRET, body),
        (e: { status: number; detail: string }) =>
          e.status === 404 && e.detail.includes("only in the US deployment (https://us.tracelight.example)"),
      );
    } finally {
      setEnv({ REGION: "us" });
    }
  });
});
