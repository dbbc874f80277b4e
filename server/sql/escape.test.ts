import { before, test } from "node:test";
import assert from "node:assert/strict";
import type { Sql } from "../db/client";
import { AppError, sqlState } from "../core/errors";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { executeReadOnly } from "./execute";
import { runSqlQuery, type SqlQueryResult } from "./query";
import { seedSql, type SqlSeed } from "./test-seed";

const DAY = "start_time > now() - interval '1 day'";

/** A hostile query and what must happen: refused with a detail matching, or answered within bounds as checked. */
type Expect = RegExp | ((result: SqlQueryResult, seed: SqlSeed) => void);

const rows = (expected: unknown[][]) => (result: SqlQueryResult) => assert.deepEqual(result.rows, expected);
const NOT_SELECT = /Only a SELECT statement is allowed/;
const TABLE = /Unknown table|without a schema/;
const FUNCTION = /Function .* is not allowed/;

const HOSTILE: [string, (seed: SqlSeed) => string, Expect][] = [
  // another workspace's or project's rows
  ["another workspace's runs by name", () => `SELECT count(*) FROM runs WHERE ${DAY} AND name = 'SECRET-B'`, rows([[0]])],
  ["another project's id", (s) => `SELECT count(*) FROM runs WHERE ${DAY} AND project_id = '${s.projectB}'`, rows([[0]])],
  ["a tautology beside the bound", () => `SELECT count(*) FROM runs WHERE ${DAY} AND (true OR project_id IS NOT NULL)`, rows([[30]])],
  ["the same workspace's unnamed project", (s) => `SELECT count(*) FROM runs WHERE ${DAY} AND project_id = '${s.projectA2}'`, rows([[0]])],
  ["feedback of every workspace", () => "SELECT count(*) FROM feedback", rows([[3]])],
  ["a bound that an OR undoes", () => `SELECT count(*) FROM runs WHERE ${DAY} OR true`, /start_time lower bound/],
  [
    "an unbounded subquery",
    () => `SELECT 1 FROM runs r WHERE r.${DAY} AND EXISTS (SELECT 1 FROM runs x WHERE x.name = 'SECRET-B')`,
    /start_time lower bound/,
  ],
  ["an unbounded UNION branch", () => `SELECT id FROM runs WHERE ${DAY} UNION SELECT id FROM runs`, /start_time lower bound/],
  ["TABLE runs", () => "TABLE runs", /start_time lower bound/],
  // other tables
  ["the runs table by schema", () => `SELECT * FROM public.runs WHERE ${DAY}`, TABLE],
  ["a quoted schema", () => `SELECT * FROM "public"."runs" WHERE ${DAY}`, TABLE],
  ["a catalog-qualified name", () => `SELECT * FROM tracelight.public.runs WHERE ${DAY}`, TABLE],
  ["projects", () => "SELECT * FROM projects", TABLE],
  ["workspaces", () => "SELECT * FROM workspaces", TABLE],
  ["api keys", () => "SELECT * FROM api_keys", TABLE],
  ["the scope table", () => "SELECT * FROM sql_scopes", TABLE],
  ["a quoted upper-case name", () => `SELECT * FROM "RUNS" WHERE ${DAY}`, TABLE],
  ["the view schema by name", () => `SELECT * FROM tracelight_sql.runs WHERE ${DAY}`, TABLE],
  // system catalogs
  ["pg_authid", () => "SELECT * FROM pg_catalog.pg_authid", TABLE],
  ["pg_class unqualified", () => "SELECT relname FROM pg_class", TABLE],
  ["information_schema", () => "SELECT * FROM information_schema.tables", TABLE],
  ["pg_stat_activity", () => "SELECT query FROM pg_stat_activity", TABLE],
  ["pg_roles in a scalar subquery", () => "SELECT (SELECT string_agg(rolname, ',') FROM pg_roles)", TABLE],
  ["a Unicode-escaped catalog name", () => 'SELECT * FROM U&"\\0070g_authid"', TABLE],
  [
    "a CTE that names a catalog before it is defined",
    () => "WITH a AS (SELECT * FROM pg_class), pg_class AS (SELECT 1) SELECT * FROM a",
    TABLE,
  ],
  ["a CTE out of scope", () => "SELECT * FROM (WITH pg_authid AS (SELECT 1) SELECT 1) s, pg_authid", TABLE],
  ["a CTE that shadows a catalog", () => "WITH pg_authid AS (SELECT 1 AS x) SELECT * FROM (SELECT * FROM pg_authid) s", rows([[1]])],
  ["a regclass cast", () => "SELECT 'pg_authid'::regclass", /Type .*regclass is not allowed/],
  ["a regproc cast", () => "SELECT CAST('pg_sleep' AS regproc)", /Type .*regproc is not allowed/],
  ["who is asking", () => "SELECT current_user", /CURRENT_USER is not allowed/],
  // functions with side effects or reach
  ["settings", () => "SELECT current_setting('is_superuser')", FUNCTION],
  ["switching role back", () => "SELECT set_config('role', 'postgres', true)", FUNCTION],
  ["pg_sleep", () => "SELECT pg_sleep(10)", FUNCTION],
  ["pg_sleep quoted", () => 'SELECT "pg_sleep"(10)', FUNCTION],
  ["pg_sleep in capitals", () => "SELECT PG_SLEEP(10)", FUNCTION],
  ["pg_sleep qualified", () => "SELECT pg_catalog.pg_sleep(10)", FUNCTION],
  ["pg_sleep in a lateral join", () => `SELECT * FROM runs, LATERAL (SELECT pg_sleep(1)) x WHERE ${DAY}`, FUNCTION],
  ["reading a server file", () => "SELECT pg_read_file('/etc/passwd')", FUNCTION],
  ["listing a directory", () => "SELECT * FROM ROWS FROM (pg_ls_dir('.'))", FUNCTION],
  ["large objects", () => "SELECT lo_import('/etc/passwd')", FUNCTION],
  ["dblink", () => "SELECT dblink('host=localhost', 'DROP TABLE runs')", FUNCTION],
  ["ending other sessions", () => "SELECT pg_terminate_backend(1)", FUNCTION],
  ["advisory locks", () => "SELECT pg_advisory_lock(1)", FUNCTION],
  ["a sequence", () => "SELECT nextval('jobs_id_seq')", FUNCTION],
  ["the service's own functions", () => "SELECT rollup_compact(1000)", FUNCTION],
  ["the service's own functions, qualified", () => "SELECT public.rollup_compact(1000)", FUNCTION],
  ["a gigabyte string", () => "SELECT repeat('x', 1000000000)", FUNCTION],
  ["XML", () => "SELECT xmlparse(document '<x/>')", /XmlExpr is not allowed/],
  ["a parameter", () => "SELECT $1", /ParamRef is not allowed/],
  // writes and other statements
  ["INSERT", () => "INSERT INTO runs (id) VALUES (gen_random_uuid())", NOT_SELECT],
  ["UPDATE", () => "UPDATE runs SET name = 'x'", NOT_SELECT],
  ["DELETE", () => "DELETE FROM runs", NOT_SELECT],
  ["DROP", () => "DROP TABLE runs", NOT_SELECT],
  ["TRUNCATE", () => "TRUNCATE runs", NOT_SELECT],
  ["COPY to a file", () => "COPY runs TO '/tmp/runs'", NOT_SELECT],
  ["CREATE TABLE AS", () => "CREATE TABLE stolen AS SELECT 1", NOT_SELECT],
  ["SELECT INTO", () => "SELECT 1 INTO stolen", /SELECT INTO is not allowed/],
  ["a writing CTE", () => "WITH d AS (DELETE FROM runs RETURNING id) SELECT * FROM d", /DeleteStmt|DELETE statement/],
  ["FOR UPDATE", () => `SELECT id FROM runs WHERE ${DAY} FOR UPDATE`, /Locking clauses/],
  ["SET ROLE", () => "SET ROLE postgres", NOT_SELECT],
  ["RESET ROLE", () => "RESET ROLE", NOT_SELECT],
  ["COMMIT", () => "COMMIT", NOT_SELECT],
  ["EXPLAIN ANALYZE", () => "EXPLAIN ANALYZE SELECT 1", NOT_SELECT],
  ["PREPARE", () => "PREPARE p AS SELECT 1", NOT_SELECT],
  ["DO", () => "DO $$ BEGIN PERFORM pg_sleep(1); END $$", NOT_SELECT],
  ["CALL", () => "CALL anything()", NOT_SELECT],
  ["NOTIFY", () => "NOTIFY everyone", NOT_SELECT],
  ["two statements", () => "SELECT 1; SELECT 2", /Only one statement/],
  ["a statement after a SELECT", () => "SELECT 1; DROP TABLE runs", /Only one statement/],
  // comments and quoting
  ["a statement in a block comment", () => "SELECT 1 AS one /* ; DROP TABLE runs; */", rows([[1]])],
  ["a statement in a line comment", () => "SELECT 1 AS one -- ; DROP TABLE runs", rows([[1]])],
  ["a statement in a dollar quote", () => "SELECT $$; DROP TABLE runs; $$ AS text", rows([["; DROP TABLE runs; "]])],
  ["a statement in an escaped string", () => "SELECT E'\\'; DROP TABLE runs; --' AS text", rows([["'; DROP TABLE runs; --"]])],
  ["closing the service's wrapper", () => "SELECT 1) AS query; DROP TABLE runs; SELECT (1", /Syntax error/],
  ["an unterminated comment", () => "SELECT 1 /* DROP TABLE runs", /Syntax error/],
  [
    "WITH RECURSIVE forever",
    () => "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
    /WITH RECURSIVE/,
  ],
  // size
  [
    "a huge cross join",
    () =>
      `SELECT count(*) FROM ${"abcdefgh"
        .split("")
        .map((a) => `runs ${a}`)
        .join(", ")} WHERE ${"abcdefgh"
        .split("")
        .map((a) => `${a}.${DAY}`)
        .join(" AND ")}`,
    /too expensive/,
  ],
  [
    "a cross join answered up to the row limit",
    () => `SELECT a.id FROM runs a, runs b, runs c WHERE a.${DAY} AND b.${DAY} AND c.${DAY}`,
    (result) => assert.ok(result.row_count === 1000 && result.truncation_reason === "row_limit"),
  ],
];

withTestDatabases("read-only SQL escape suite", (open) => {
  let db: Sql;
  let seed: SqlSeed;

  before(async () => {
    db = (await open()).sql;
    seed = await seedSql(db);
  });

  test(`${HOSTILE.length} hostile queries: each refused or bounded, none leaking a row`, async () => {
    assert.ok(HOSTILE.length >= 50);
    for (const [name, write, expect] of HOSTILE) {
      const attempt = runSqlQuery(db, seed.ws, { projectIds: [seed.projectA], query: write(seed) });
      if (expect instanceof RegExp) {
        await assert.rejects(attempt, (e: unknown) => e instanceof AppError && e.status === 400 && expect.test(e.detail), name);
        continue;
      }
      const result = await attempt;
      assert.ok(!JSON.stringify(result.rows).includes("SECRET-B"), `${name}: leaked another workspace's row`);
      expect(result, seed);
    }
    const after = await db.prisma.run.count({ where: { workspaceId: seed.ws } });
    assert.equal(after, 35, "nothing was written or deleted");
  });

  /** Without the parser's checks, the database itself refuses. */
  const direct = (statement: string, projectIds = [seed.projectA]) => executeReadOnly(db, { workspaceId: seed.ws, projectIds }, statement);
  const denied = (state: string) => (error: unknown) =>
    sqlState(error) === state || (error instanceof AppError && /permission denied|read-only/.test(error.detail));

  test("the database refuses what the parser would: other tables, catalogs, files, writes", async () => {
    for (const statement of [
      "SELECT count(*) FROM public.runs",
      "SELECT * FROM public.api_keys",
      "SELECT * FROM public.sql_scopes",
      "SELECT * FROM public.projects",
      "SELECT * FROM pg_catalog.pg_authid",
      "SELECT pg_read_file('/etc/passwd')",
    ])
      await assert.rejects(direct(statement), denied("42501"), statement);
    for (const statement of [
      "WITH gone AS (DELETE FROM tracelight_sql.runs RETURNING 1) SELECT * FROM gone",
      "WITH gone AS (DELETE FROM public.runs RETURNING 1) SELECT * FROM gone",
    ])
      await assert.rejects(direct(statement), (e: unknown) => e instanceof AppError && e.status === 400, statement);
  });

  test("the database shows the views only the scope's rows, whatever the query says", async () => {
    const all = await direct("SELECT count(*), count(*) FILTER (WHERE name = 'SECRET-B') FROM tracelight_sql.runs");
    assert.deepEqual(all.rows, [["30", "0"]]);
    const feedback = await direct("SELECT count(*) FROM tracelight_sql.feedback", [seed.projectB]);
    assert.deepEqual(feedback.rows, [["0"]]);
    const none = await direct("SELECT count(*) FROM tracelight_sql.runs", [seed.projectB]);
    assert.deepEqual(none.rows, [["0"]], "another workspace's project named in the scope still shows nothing");
    const left = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM sql_scopes`);
    assert.equal(left[0]!.n, 0, "the scope row was rolled back");
  });
});
