import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { seedFeedback, seedRun } from "../runs/test-seed";
import { near } from "../runs/rollups/test-near";
import { sessionCreate, sessionDeleteQuery, sessionFilterFromWire, sessionListQuery, sessionUpdate } from "./schema";
import { createSession, deleteSessions, listSessions, readSession, updateSession } from "./service";

const ws = randomUUID();
/** GET /sessions' parameters, through the REST adapter's mapping. */
const wireFilter = (q: Record<string, unknown>) => sessionFilterFromWire(sessionListQuery.parse(q));
const status = (code: number) => (e: unknown) => e instanceof AppError && e.status === code;

withTestDatabases("sessions", (open) => {
  let db: Sql;
  before(async () => {
    db = (await open()).sql;
  });

  test("create, read by id and by name, 409 on a duplicate, upsert updates", async () => {
    const created = await createSession(
      db,
      ws,
      sessionCreate.parse({ name: "alpha", description: "first", extra: { metadata: { team: "a" } } }),
    );
    assert.equal(created.tenant_id, ws);
    assert.equal(created.reference_dataset_id, null);
    assert.match(created.start_time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.deepEqual(await readSession(db, ws, created.id as string), created);
    const [byName] = await listSessions(db, ws, wireFilter({ name: "alpha" }));
    assert.equal(byName.id, created.id);
    await assert.rejects(createSession(db, ws, sessionCreate.parse({ name: "alpha" })), status(409));
    const upserted = await createSession(db, ws, sessionCreate.parse({ name: "alpha", description: "again" }), true);
    assert.equal(upserted.id, created.id);
    assert.equal(upserted.description, "again");
    await assert.rejects(readSession(db, randomUUID(), created.id as string), status(404));
    await assert.rejects(readSession(db, ws, "nope"), status(404));
  });

  test("list filters: name_contains, repeated id, metadata, offset/limit", async () => {
    const b = await createSession(db, ws, sessionCreate.parse({ name: "beta-1", extra: { metadata: { team: "b" } } }));
    const c = await createSession(db, ws, sessionCreate.parse({ name: "beta-2" }));
    const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();
    assert.deepEqual(names(await listSessions(db, ws, wireFilter({ name_contains: "BETA" }))), ["beta-1", "beta-2"]);
    assert.deepEqual(names(await listSessions(db, ws, wireFilter({ id: [b.id, c.id] }))), ["beta-1", "beta-2"]);
    assert.deepEqual(names(await listSessions(db, ws, wireFilter({ id: b.id }))), ["beta-1"]);
    assert.deepEqual(names(await listSessions(db, ws, wireFilter({ metadata: '{"team":"b"}' }))), ["beta-1"]);
    assert.equal((await listSessions(db, ws, wireFilter({ limit: "1", offset: "1", name_contains: "beta" }))).length, 1);
    assert.deepEqual(await listSessions(db, randomUUID(), wireFilter({})), []);
    // % and _ in name_contains are matched as themselves, not as wildcards.
    await createSession(db, ws, sessionCreate.parse({ name: "50%_off" }));
    await createSession(db, ws, sessionCreate.parse({ name: "50x-off" }));
    assert.deepEqual(names(await listSessions(db, ws, wireFilter({ name_contains: "0%_" }))), ["50%_off"]);
  });

  test("include_stats adds run counts, latency, tokens, costs and feedback", async () => {
    const p = await createSession(db, ws, sessionCreate.parse({ name: "stats" }));
    const start = new Date("2026-03-01T00:00:00Z");
    const root = await seedRun(db, ws, p.id as string, { start, latencyMs: 2000 });
    await seedRun(db, ws, p.id as string, {
      parent: root,
      runType: "llm",
      start,
      latencyMs: 1500,
      promptTokens: 7,
      completionTokens: 3,
      promptCost: 0.5,
      completionCost: 0.25,
      firstTokenMs: 100,
    });
    await seedRun(db, ws, p.id as string, { start: new Date("2026-03-01T00:01:00Z"), latencyMs: 4000, error: "x" });
    await seedFeedback(db, ws, { ...root, projectId: p.id as string }, "score", 0.5);
    const withStats = await readSession(db, ws, p.id as string, true);
    assert.equal(withStats.run_count, 2);
    near(withStats.latency_p50, 3);
    assert.equal(withStats.error_rate, 0.5);
    assert.equal(withStats.total_tokens, 10);
    assert.equal(withStats.total_cost, 0.75);
    near(withStats.first_token_p50, 0.1);
    assert.equal(withStats.last_run_start_time, "2026-03-01T00:01:00.000000Z");
    assert.deepEqual(withStats.feedback_stats, { score: { n: 1, avg: 0.5, stdev: 0, values: {} } });
    const [listed] = await listSessions(db, ws, wireFilter({ name: "stats", include_stats: "true" }));
    assert.equal(listed.run_count, 2);
    const empty = await createSession(db, ws, sessionCreate.parse({ name: "empty" }));
    assert.equal((await readSession(db, ws, empty.id as string, true)).run_count, 0);
  });

  test("update ignores nulls, renames with 409 on a taken name", async () => {
    const p = await createSession(db, ws, sessionCreate.parse({ name: "gamma", description: "d" }));
    const changed = await updateSession(
      db,
      ws,
      p.id as string,
      sessionUpdate.parse({ name: null, description: null, extra: null, end_time: "2026-03-02T00:00:00Z" }),
    );
    assert.equal(changed.description, "d");
    assert.deepEqual(await updateSession(db, ws, p.id as string, sessionUpdate.parse({ name: null })), changed, "nothing to change");
    assert.equal(changed.end_time, "2026-03-02T00:00:00.000000Z");
    assert.equal((await updateSession(db, ws, p.id as string, sessionUpdate.parse({ name: "gamma2" }))).name, "gamma2");
    await assert.rejects(updateSession(db, ws, p.id as string, sessionUpdate.parse({ name: "alpha" })), status(409));
    await assert.rejects(updateSession(db, randomUUID(), p.id as string, sessionUpdate.parse({ name: "x" })), status(404));
  });

  test("delete removes the project with its runs, feedback and attachment rows, and nothing else", async () => {
    const doomed = await createSession(db, ws, sessionCreate.parse({ name: "doomed" }));
    const kept = await createSession(db, ws, sessionCreate.parse({ name: "kept" }));
    const run = await seedRun(db, ws, doomed.id as string);
    await seedRun(db, ws, doomed.id as string, { parent: run });
    const survivor = await seedRun(db, ws, kept.id as string);
    await seedFeedback(db, ws, { ...run, projectId: doomed.id as string }, "k", 1);
    await seedFeedback(db, ws, { ...survivor, projectId: kept.id as string }, "k", 1);
    await db.query(sql`INSERT INTO attachments (id, workspace_id, run_id, name, mime_type, size, blob_key)
      VALUES (${randomUUID()}, ${ws}, ${run.id}, 'a.png', 'image/png', 3, ${"0".repeat(64)})`);
    await assert.rejects(deleteSessions(db, randomUUID(), [doomed.id as string]), status(404));
    const ids = sessionDeleteQuery.parse({ session_ids: `${doomed.id}` }).session_ids!;
    assert.deepEqual(await deleteSessions(db, ws, ids), { projects: 1, runs: 2, feedback: 1, attachments: 1, chart_sets: 0 });
    await assert.rejects(readSession(db, ws, doomed.id as string), status(404));
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM runs WHERE project_id = ${kept.id}`);
    assert.equal(n, 1);
    const [{ f }] = await db.query<{ f: number }>(sql`SELECT count(*)::int AS f FROM feedback WHERE project_id = ${kept.id}`);
    assert.equal(f, 1);
    await assert.rejects(deleteSessions(db, ws, ["not-a-uuid"]), status(400));
  });
});
