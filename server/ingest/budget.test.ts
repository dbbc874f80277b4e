import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql, type SqlFragment } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { makeTrace } from "../../bench/payloads";
import { ingestBatch } from "./service";

/**
 * A guard against gross ingest regressions that does not depend on how busy the machine is: the
 * number of SQL statements one 100-run request costs (each is a round trip and a plan), and a fixed
 * 20,000-run set stored in process with its traces' totals exact. Throughput itself is measured by
 * `npm run bench` and `npm run bench:ab`, never asserted here.
 */
const STATEMENTS_PER_NEW_REQUEST = 3; // projects lookup, the runs insert, the traces' totals
const STATEMENTS_PER_PATCH_REQUEST = 5; // projects, update, rederive (read, write), totals

/** The executor, counting every statement run through it and through its transactions. */
function counting(db: Sql): { sql: Sql; count: () => number } {
  let statements = 0;
  const wrap = (inner: Sql): Sql =>
    Object.create(inner, {
      query: { value: (query: SqlFragment) => (statements++, inner.query(query)) },
      text: { value: (text: string, values?: unknown[]) => (statements++, inner.text(text, values)) },
      tx: { value: <T>(fn: (tx: Sql) => Promise<T>, options?: { rollback?: boolean }) => inner.tx((tx) => fn(wrap(tx)), options) },
    }) as Sql;
  return { sql: wrap(db), count: () => statements };
}

const request = () => Array.from({ length: 10 }, () => makeTrace("budget", 4, 5)).flat();

withTestDatabases("ingest budget", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).ingestSql;
    ws = (await createWorkspace(db.prisma, "budget")).id;
    await ingestBatch(db, ws, { post: request() }); // the project exists and prices are cached from here on
  });

  test(`a request of 100 new runs costs at most ${STATEMENTS_PER_NEW_REQUEST} statements`, async () => {
    const counted = counting(db);
    const result = await ingestBatch(counted.sql, ws, { post: request() });
    assert.deepEqual(result, { created: 100, updated: 0, rejected: [] });
    assert.ok(counted.count() <= STATEMENTS_PER_NEW_REQUEST, `${counted.count()} statements`);
  });

  test(`a request completing 100 stored runs costs at most ${STATEMENTS_PER_PATCH_REQUEST} statements`, async () => {
    const runs = request();
    await ingestBatch(db, ws, { post: runs.map(({ end_time: _end, outputs: _outputs, ...run }) => run) });
    const counted = counting(db);
    const result = await ingestBatch(counted.sql, ws, {
      patch: runs.map((r) => ({ id: r.id, trace_id: r.trace_id, dotted_order: r.dotted_order, end_time: r.end_time, outputs: r.outputs })),
    });
    assert.deepEqual(result, { created: 0, updated: 100, rejected: [] });
    assert.ok(counted.count() <= STATEMENTS_PER_PATCH_REQUEST, `${counted.count()} statements`);
  });

  test("20,000 runs in 200 requests are stored with their traces' totals exact", { timeout: 10 * 60_000 }, async () => {
    for (let i = 0; i < 200; i++) await ingestBatch(db, ws, { post: request() });
    const [drift] = await db.query<{ traces: number; wrong: number }>(sql`
      WITH summed AS (
        SELECT trace_id, count(*) AS runs, count(*) FILTER (WHERE run_type = 'llm') AS llm_runs,
          count(*) FILTER (WHERE status = 'error') AS error_runs,
          sum(total_tokens) FILTER (WHERE run_type = 'llm') AS total_tokens, sum(total_cost) FILTER (WHERE run_type = 'llm') AS total_cost
        FROM runs WHERE workspace_id = ${ws} GROUP BY trace_id)
      SELECT count(*)::int AS traces,
        count(*) FILTER (WHERE (s.runs, s.llm_runs, s.error_runs, s.total_tokens, s.total_cost)
          IS DISTINCT FROM (t.runs, t.llm_runs, t.error_runs, t.total_tokens, t.total_cost))::int AS wrong
      FROM summed s LEFT JOIN trace_totals t ON t.workspace_id = ${ws} AND t.trace_id = s.trace_id`);
    assert.equal(drift.wrong, 0);
    assert.ok(drift.traces >= 2_000);
  });
});
