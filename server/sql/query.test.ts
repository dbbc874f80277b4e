import { before, test } from "node:test";
import assert from "node:assert/strict";
import type { Sql } from "../db/client";
import { AppError } from "../core/errors";
import { withTestDatabases } from "../db/test-databases";
import { resetEnv } from "../env";
import { runSqlQuery } from "./query";
import { listViews } from "./views";
import { seedSql, type SqlSeed } from "./test-seed";

const refused = (detail: RegExp) => (error: unknown) => error instanceof AppError && error.status === 400 && detail.test(error.detail);
const WEEK = "start_time >= now() - interval '7 days'";

withTestDatabases("read-only SQL", (open) => {
  let db: Sql;
  let seed: SqlSeed;
  const query = (text: string, projects = [seed.projectA]) => runSqlQuery(db, seed.ws, { projectIds: projects, query: text });

  before(async () => {
    db = (await open()).sql;
    seed = await seedSql(db);
  });

  test("counts by model, answered as typed columns", async () => {
    const result = await query(`SELECT model, count(*) AS runs, sum(total_tokens) AS tokens, avg(latency_ms)::float8 AS latency
      FROM runs WHERE ${WEEK} AND run_type = 'llm' GROUP BY model ORDER BY runs DESC`);
    assert.deepEqual(result.columns, [
      { name: "model", data_type: "string" },
      { name: "runs", data_type: "integer" },
      { name: "tokens", data_type: "integer" },
      { name: "latency", data_type: "float" },
    ]);
    assert.deepEqual(
      result.rows.map((r) => r.slice(0, 3)),
      [
        ["gpt-4o", 12, 12 * 10 + 66],
        ["claude", 8, 8 * 10 + (12 + 19) * 4],
      ],
    );
    assert.equal(result.row_count, 2);
    assert.equal(result.is_truncated, false);
    assert.equal(result.truncation_reason, null);
    assert.ok(result.execution_time_ms >= 0);
    assert.deepEqual(result.warnings, []);
  });

  test("values keep their JSON shape: uuid, timestamp, object, list, boolean, content as sent", async () => {
    const result = await query(`SELECT id, start_time, inputs, tags, is_root, metadata ->> 'turn' AS turn
      FROM runs WHERE ${WEEK} AND id = '${seed.nulRun}'`);
    assert.deepEqual(
      result.columns.map((c) => c.data_type),
      ["uuid", "timestamp", "object", "list", "boolean", "string"],
    );
    const [row] = result.rows;
    assert.equal(row![0], seed.nulRun);
    assert.match(String(row![1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.deepEqual(row![2], { text: "nul \u0000 here" });
    assert.deepEqual(row![3], ["sql", "n0"]);
    assert.deepEqual(row!.slice(4), [true, "0"]);
  });

  test("feedback joins runs, and only the named projects are read", async () => {
    const scored = await query(`SELECT f.key, count(*), round(avg(f.score)::numeric, 2) AS mean
      FROM feedback f JOIN runs r ON r.id = f.run_id WHERE r.start_time > now() - interval '1 day' GROUP BY f.key`);
    assert.deepEqual(scored.rows, [["correctness", 3, 0.6]]);
    const both = await query(`SELECT count(*) FROM runs WHERE ${WEEK}`, [seed.projectA, seed.projectA2]);
    assert.deepEqual(both.rows, [[35]]);
    const one = await query(`SELECT count(*) FROM runs WHERE ${WEEK}`, [seed.projectA2]);
    assert.deepEqual(one.rows, [[5]]);
  });

  test("the views' columns are listed with their types for the SQL page", async () => {
    const views = await listViews(db);
    assert.deepEqual(
      views.map((v) => v.name),
      ["runs", "feedback"],
    );
    const runs = new Map(views[0]!.columns.map((c) => [c.name, c.type]));
    assert.equal(runs.get("start_time"), "timestamptz");
    assert.equal(runs.get("tags"), "text[]");
    assert.equal(runs.get("inputs"), "jsonb");
    assert.ok(!runs.has("workspace_id"), "the scope is not a column");
  });

  test("another workspace's project is a 404, even named beside one's own", async () => {
    await assert.rejects(query("SELECT 1", [seed.projectA, seed.projectB]), (e: unknown) => e instanceof AppError && e.status === 404);
  });

  test("answers at most the row limit, and says so", async () => {
    const result = await query(`SELECT a.id, b.id FROM runs a CROSS JOIN runs b
      WHERE a.start_time >= now() - interval '1 day' AND b.start_time >= now() - interval '1 day'`);
    assert.equal(result.row_count, 900);
    assert.equal(result.is_truncated, false);
    assert.deepEqual(
      result.columns.map((c) => c.name),
      ["id", "id"],
    );
    const more = await query(`SELECT a.id FROM runs a, runs b, runs c WHERE a.${WEEK} AND b.${WEEK} AND c.${WEEK}`);
    assert.equal(more.row_count, 1000);
    assert.equal(more.is_truncated, true);
    assert.equal(more.truncation_reason, "row_limit");
  });

  test("answers at most SQL_MAX_BYTES of rows", async () => {
    process.env.SQL_MAX_BYTES = "2000";
    resetEnv();
    try {
      // In a fixed order: the bound ends an answer early at a row much wider than the widest before
      // it, so without ORDER BY the count hung on the scan's order (a few 40-byte chain rows first,
      // then a 110-byte llm row, ended it at 5 rows once).
      const result = await query(`SELECT inputs, outputs, tags, name FROM runs WHERE ${WEEK} ORDER BY start_time DESC`);
      assert.equal(result.truncation_reason, "size_limit");
      assert.ok(result.row_count > 5 && result.row_count < 30, `${result.row_count} rows`);
      assert.deepEqual(
        result.rows.map((r) => r[0]),
        Array.from({ length: result.row_count }, (_, i) => (i === 0 ? { text: "nul \u0000 here" } : { i })),
      );
      assert.ok(JSON.stringify(result.rows).length <= 2000, `${JSON.stringify(result.rows).length} bytes`);
    } finally {
      delete process.env.SQL_MAX_BYTES;
      resetEnv();
    }
  });

  test("mistakes are 400s that say what and where", async () => {
    await assert.rejects(query("SELEC 1"), refused(/syntax error at or near "SELEC" \(at character 1/));
    await assert.rejects(
      query("SELECT nope FROM runs WHERE start_time > now()"),
      refused(/column "nope" does not exist \(at character 8\)/),
    );
    await assert.rejects(query("SELECT count(*) FROM runs"), refused(/need a start_time lower bound.*at character 22/));
    await assert.rejects(query("SELECT 1/0"), refused(/division by zero/));
    await assert.rejects(query("  "), (e: unknown) => e instanceof Error);
  });

  test("a query past SQL_TIMEOUT_MS is cancelled, on the embedded database too", async () => {
    process.env.SQL_TIMEOUT_MS = "200";
    process.env.SQL_MAX_COST = "1e15";
    resetEnv();
    try {
      const letters = ["a", "b", "c", "d", "e", "f"];
      await assert.rejects(
        query(
          `SELECT count(*) FROM ${letters.map((a) => `runs ${a}`).join(", ")} WHERE ${letters.map((a) => `${a}.${WEEK}`).join(" AND ")}`,
        ),
        refused(/ran longer than 0.2 s and was cancelled: narrow the start_time range/),
      );
    } finally {
      delete process.env.SQL_TIMEOUT_MS;
      delete process.env.SQL_MAX_COST;
      resetEnv();
    }
  });

  test("a comment or a semicolon at the end is part of a statement, not a way out of it", async () => {
    const result = await query(`SELECT count(*) FROM runs WHERE ${WEEK}; -- the end`);
    assert.deepEqual(result.rows, [[30]]);
    const commented = await query(`/* first */ SELECT count(*) -- counted
      FROM runs WHERE ${WEEK} -- trailing`);
    assert.deepEqual(commented.rows, [[30]]);
  });
});
