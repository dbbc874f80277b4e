import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { AppError } from "../core/errors";
import { withTestDatabases } from "../db/test-databases";
import { resetEnv } from "../env";
import { ingestRuns } from "../ingest/service";
import { executeReadOnly } from "./execute";
import { runSqlQuery } from "./query";
import { seedSql, type SqlSeed } from "./test-seed";

/** What one read-only SQL query may cost: time, nesting, the time range it reads, the size of a value. */

const refused = (detail: RegExp) => (error: unknown) => error instanceof AppError && error.status === 400 && detail.test(error.detail);
const WEEK = "start_time >= now() - interval '7 days'";

async function withEnv<T>(values: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, values);
  resetEnv();
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(values)) delete process.env[key];
    resetEnv();
  }
}

/** An Sql that remembers the longest value any statement of its transactions answered. */
function measured(db: Sql): { sql: Sql; longest: () => number; largestFetch: () => number } {
  let longest = 0;
  let largestFetch = 0;
  const watch = (inner: Sql): Sql =>
    Object.assign(Object.create(inner) as Sql, {
      arrays: async (text: string) => {
        const result = await inner.arrays(text);
        const lengths = result.rows.flat().map((value) => (typeof value === "string" ? value.length : 0));
        longest = Math.max(longest, ...lengths);
        largestFetch = Math.max(
          largestFetch,
          lengths.reduce((sum, length) => sum + length, 0),
        );
        return result;
      },
    });
  const sql = Object.assign(Object.create(db) as Sql, {
    bounded: <T>(ms: number, fn: (sql: Sql) => Promise<T>) => db.bounded(ms, (inner) => fn(watch(inner))),
    tx: <T>(fn: (sql: Sql) => Promise<T>, options?: { rollback?: boolean }) => db.tx((inner) => fn(watch(inner)), options),
  });
  return { sql, longest: () => longest, largestFetch: () => largestFetch };
}

withTestDatabases("read-only SQL bounds", (open) => {
  let db: Sql;
  let seed: SqlSeed;
  const query = (text: string, on: Sql = db) => runSqlQuery(on, seed.ws, { projectIds: [seed.projectA], query: text });

  before(async () => {
    db = (await open()).sql;
    seed = await seedSql(db);
  });

  test("a query past SQL_TIMEOUT_MS is cancelled on either database, and an ingest meanwhile is answered", async (t) => {
    // One set-returning function per FROM passes the checks, and the planner takes each for 100
    // rows: 100 × 100 comparisons. The arrays hold 20,000: 4·10^8, a minute of work or more.
    const array = `'${JSON.stringify(Array.from({ length: 20_000 }, (_, i) => i))}'`;
    const hostile = `SELECT count(*) FROM json_array_elements_text(${array}) a
      WHERE (SELECT count(*) FROM json_array_elements_text(${array}) b WHERE b.value < a.value) >= 0`;
    await withEnv({ SQL_TIMEOUT_MS: "500" }, async () => {
      const started = performance.now();
      const cancelled = assert.rejects(query(hostile), refused(/ran longer than 0.5 s and was cancelled: narrow the start_time range/));
      const queryDone = cancelled.then(() => performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ingestStarted = performance.now();
      const run = randomUUID();
      const ingest = await ingestRuns(db, seed.ws, {
        post: [{ id: run, name: "meanwhile", run_type: "chain", session_name: "sql-a", start_time: Date.now() }],
      });
      const ingestMs = performance.now() - ingestStarted;
      const queryMs = await queryDone;
      t.diagnostic(`query stopped after ${Math.round(queryMs)} ms; the ingest took ${Math.round(ingestMs)} ms`);
      assert.deepEqual(ingest.rejected ?? [], []);
      // Generous bounds on a shared machine; unbounded, the query runs for minutes.
      assert.ok(queryMs < 500 + 4000, `the query was stopped after ${Math.round(queryMs)} ms`);
      assert.ok(ingestMs < 4000, `the ingest took ${Math.round(ingestMs)} ms`);
      const stored = await query(`SELECT count(*) FROM runs WHERE ${WEEK} AND id = '${run}'`);
      assert.deepEqual(stored.rows, [[1]]);
    });
  });

  test("SQL_TIMEOUT_MS bounds the fetches together, not each one", async () => {
    // Unchecked (pg_sleep), so each row takes 200 ms: fetches of one or two rows stay under the
    // timeout, their sum does not.
    await withEnv({ SQL_TIMEOUT_MS: "700", SQL_MAX_BYTES: "20000" }, async () => {
      const started = performance.now();
      await assert.rejects(
        executeReadOnly(
          db,
          { workspaceId: seed.ws, projectIds: [seed.projectA] },
          "SELECT lpad('x', 4000) AS v, pg_sleep(0.2) FROM generate_series(1, 8)",
        ),
        refused(/ran longer than 0.7 s and was cancelled/),
      );
      assert.ok(performance.now() - started < 700 + 3000, `stopped after ${Math.round(performance.now() - started)} ms`);
    });
  });

  test("set-returning functions joined to each other are refused; one per FROM reads as before", async () => {
    const array = `'${JSON.stringify(Array.from({ length: 400 }, (_, i) => i))}'`;
    await assert.rejects(
      query(
        `SELECT count(*) FROM json_array_elements_text(${array}) a, json_array_elements_text(${array}) b, json_array_elements_text(${array}) c`,
      ),
      refused(/At most one set-returning function .* may be joined in a FROM.*\(at character \d+: "json_array_elements_"\)/),
    );
    await assert.rejects(
      query(`SELECT count(*) FROM unnest(array[1,2]) a JOIN (SELECT jsonb_array_elements('[1]') AS e) b ON true`),
      refused(/At most one set-returning function/),
    );
    const tags = await query(`SELECT count(*) FROM runs r, unnest(r.tags) t WHERE r.${WEEK}`);
    assert.deepEqual(tags.rows, [[60]]);
  });

  test("a start_time bound must be a finite time", async () => {
    const finite = /A start_time bound must be a finite time/;
    for (const bound of [
      "start_time >= '-infinity'",
      "start_time > '-Infinity'::timestamptz",
      "start_time BETWEEN '-infinity' AND now()",
      "'-infinity' <= start_time",
      "start_time >= ('-inf' || 'inity')::timestamptz",
      "start_time >= now() - interval 'infinity'",
    ])
      await assert.rejects(query(`SELECT count(*) FROM runs WHERE ${bound}`), refused(finite), bound);
    const dated = await query(
      `SELECT count(*) FROM runs WHERE start_time >= date '2020-01-01' AND start_time BETWEEN now() - interval '7 days' AND now() AND name <> 'meanwhile'`,
    );
    assert.deepEqual(dated.rows, [[30]]);
  });

  test("an expression nested past the limit is a 400 naming the limit; one under it runs", async () => {
    await assert.rejects(
      query(`SELECT 1 ${"+1".repeat(33_000)}`),
      refused(/too complex: at most 1,000 operators, keywords and opening brackets are allowed, it has 33,001/),
    );
    const deep = await query(`SELECT 1 ${"+1".repeat(990)}`);
    assert.deepEqual(deep.rows, [[991]]);
    const list = await query(
      `SELECT count(*) FROM runs WHERE ${WEEK} AND name IN (${Array.from({ length: 5000 }, (_, i) => `'n${i}'`).join(", ")}, 'pipeline')`,
    );
    assert.deepEqual(list.rows, [[10]]);
  });

  test("U+0000 in the query text is a 400, not an outage", async () => {
    await assert.rejects(query("SELECT 1 -- \u0000"), refused(/contains U\+0000 \(a NUL character\) at character 13/));
    await assert.rejects(query("SELECT 'a\u0000b'"), refused(/contains U\+0000/));
  });

  test("a value longer than SQL_MAX_BYTES is cut in the database, never read whole", async () => {
    await withEnv({ SQL_MAX_BYTES: "10000" }, async () => {
      const { sql, longest, largestFetch } = measured(db);
      const result = await query(`SELECT n, lpad('x', 20000000) AS big FROM (VALUES (1), (2)) v(n)`, sql);
      assert.equal(result.truncation_reason, "size_limit");
      assert.equal(result.row_count, 0);
      assert.ok(longest() <= 10_001, `a value of ${longest()} characters was read`);
      const small = await query(
        `SELECT name, inputs FROM runs WHERE ${WEEK} AND name = 'model call' ORDER BY start_time DESC LIMIT 3`,
        sql,
      );
      assert.equal(small.row_count, 3);
      assert.equal(small.truncation_reason, null);
      assert.deepEqual(small.rows[2]![1], { i: 2 });
      // Thirty rows of 900 characters: 27,000, read a few rows at a time.
      const wide = await query(`SELECT lpad('x', 900) AS v FROM runs WHERE ${WEEK}`, sql);
      assert.equal(wide.truncation_reason, "size_limit");
      assert.ok(wide.row_count >= 8 && wide.row_count <= 11, `${wide.row_count} rows`);
      assert.ok(largestFetch() <= 10_000, `one fetch read ${largestFetch()} characters`);
    });
  });
});
