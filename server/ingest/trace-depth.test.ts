import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { MAX_DOTTED_ORDER_LENGTH, MAX_TRACE_DEPTH } from "../core/trace-depth";
import { readRun } from "../runs/read";
import { ingestBatch } from "./service";

const run = (fields: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  name: "level",
  run_type: "chain",
  start_time: "2026-05-01T10:00:00Z",
  inputs: {},
  session_name: "deep",
  ...fields,
});

/** `levels` runs, each the parent of the next, placed by parent_run_id alone (no dotted_order sent). */
function chain(levels: number, under?: string) {
  const runs = [run(under ? { parent_run_id: under } : {})];
  for (let i = 1; i < levels; i++) runs.push(run({ parent_run_id: runs[i - 1].id }));
  return runs;
}

withTestDatabases("ingest: how deep a trace may nest", (open) => {
  test("a run past 1,000 levels is refused alone with the reason; its trace and the rest of the batch are stored", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const levels = chain(MAX_TRACE_DEPTH);
    assert.deepEqual((await ingestBatch(db, ws, { post: levels })).rejected, []);
    const deepest = await readRun(db, ws, levels[MAX_TRACE_DEPTH - 1].id);
    assert.equal(deepest!.dotted_order.length, MAX_DOTTED_ORDER_LENGTH);

    const [tooDeep, fine] = [run({ parent_run_id: levels[MAX_TRACE_DEPTH - 1].id }), run()];
    const sentOrder = `${deepest!.dotted_order}.20260501T100000000000Z${randomUUID()}`;
    const givenOrder = run({ id: sentOrder.slice(-36), dotted_order: sentOrder, trace_id: levels[0].id });
    const result = await ingestBatch(db, ws, { post: [tooDeep, fine, givenOrder] });
    const refused = new Map(result.rejected.map((r) => [r.id, r.detail]));
    assert.deepEqual([...refused.keys()].sort(), [tooDeep.id, givenOrder.id].sort());
    assert.match(refused.get(tooDeep.id)!, /would nest 1,001 levels deep in its trace; a trace nests at most 1,000 levels/);
    assert.match(refused.get(givenOrder.id)!, /dotted_order \(59,058 characters\) nests deeper than a trace may \(1,000 levels\)/);
    assert.ok(await readRun(db, ws, fine.id));
    assert.equal(await readRun(db, ws, tooDeep.id), null);
  });

  test("a run stored before its parent, that would nest too deep once the parent comes, stays pending and is kept", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const levels = chain(MAX_TRACE_DEPTH - 1);
    await ingestBatch(db, ws, { post: levels });
    const last = run({ parent_run_id: levels[levels.length - 1].id });
    const orphan = run({ parent_run_id: last.id });
    // The orphan's parent is unknown when it comes: stored, pending. Its parent then takes the last level.
    assert.deepEqual((await ingestBatch(db, ws, { post: [orphan] })).rejected, []);
    assert.deepEqual((await ingestBatch(db, ws, { post: [last] })).rejected, []);
    assert.equal((await readRun(db, ws, last.id))!.dotted_order.length, MAX_DOTTED_ORDER_LENGTH);
    const [kept] = await db.query<{ placement_pending: boolean; dotted_order: string }>(
      sql`SELECT placement_pending, dotted_order FROM runs WHERE id = ${orphan.id}`,
    );
    assert.equal(kept.placement_pending, true);
    assert.equal(kept.dotted_order.split(".").length, 1);
  });
});
