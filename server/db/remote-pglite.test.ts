import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { messages } from "@electric-sql/pglite";
import { openDatabase } from "./client";
import type { Database } from "./handle";
import { migrate } from "./migrate";
import { sql } from "./sql";

/** The embedded database in its worker thread and in the server's thread answer alike. */
for (const worker of [true, false]) {
  const where = worker ? "in a worker thread" : "in the server's thread (EMBEDDED_WORKER=0)";
  describe(`embedded ${where}`, () => {
    let db: Database;
    before(async () => {
      db = await openDatabase({ dataDir: "memory", worker });
      await migrate(db);
    });
    after(() => db.close());

    test(`embedded ${where}: PGlite's errors arrive with their fields and class`, async () => {
      const error = await db.sql.text("SELECT 1 +").then(
        () => null,
        (e: unknown) => e as messages.DatabaseError & { query?: string },
      );
      assert.ok(error instanceof messages.DatabaseError, String(error));
      assert.equal(error.code, "42601");
      assert.equal(error.position, "11");
      assert.equal(error.severity, "ERROR");
      assert.equal(error.query, "SELECT 1 +");
      const unique = await db.sql.text("CREATE TEMP TABLE u (k int PRIMARY KEY); INSERT INTO u VALUES (1); INSERT INTO u VALUES (1)").then(
        () => null,
        (e: unknown) => e as messages.DatabaseError,
      );
      assert.equal(unique?.code, "23505");
      assert.match(unique?.detail ?? "", /Key \(k\)=\(1\) already exists/);
    });

    test(`embedded ${where}: values are parsed as before (times as text, the rest by type; arrays as text)`, async () => {
      const [row] = await db.sql.query<Record<string, unknown>>(
        sql`SELECT 1::int AS i, 2::bigint AS b, true AS t, '{"a":1}'::jsonb AS j, '2026-01-02 03:04:05.123456+00'::timestamptz AS at, NULL::int AS n, ARRAY[1,2] AS xs`,
      );
      assert.deepEqual(row, { i: 1, b: 2, t: true, j: { a: 1 }, at: "2026-01-02 03:04:05.123456+00", n: null, xs: [1, 2] });
      const raw = await db.sql.arrays("SELECT 1::int AS a, 1::int AS a, '{\"x\":2}'::jsonb AS j");
      assert.deepEqual(raw.rows, [["1", "1", '{"x": 2}']]);
      assert.deepEqual(
        raw.fields.map((f) => f.name),
        ["a", "a", "j"],
      );
    });

    test(`embedded ${where}: Prisma Client reads and writes through the adapter`, async () => {
      const id = crypto.randomUUID();
      const created = await db.prisma.workspace.create({ data: { id, name: `w-${id}` } });
      assert.ok(created.createdAt instanceof Date);
      const found = await db.prisma.workspace.findUniqueOrThrow({ where: { id } });
      assert.equal(found.name, `w-${id}`);
      await assert.rejects(db.prisma.workspace.create({ data: { id, name: "again" } }), (e: { code?: string }) => e.code === "P2002");
    });

    test(`embedded ${where}: a transaction commits, rolls back on a failure, and tx.rollback() keeps nothing`, async () => {
      await db.sql.text("CREATE TABLE IF NOT EXISTS kept (k int)");
      await db.sql.tx((t) => t.query(sql`INSERT INTO kept VALUES (1)`));
      await assert.rejects(
        db.sql.tx(async (t) => {
          await t.query(sql`INSERT INTO kept VALUES (2)`);
          throw new Error("refused");
        }),
        /refused/,
      );
      await db.sql.tx((t) => t.query(sql`INSERT INTO kept VALUES (3)`), { rollback: true });
      const rows = await db.sql.query<{ k: number }>(sql`SELECT k FROM kept ORDER BY k`);
      assert.deepEqual(
        rows.map((r) => r.k),
        [1],
      );
    });

    test(`embedded ${where}: a bounded transaction's statement is cancelled past its deadline (57014), and the next runs`, async () => {
      const started = performance.now();
      const error = await db.sql
        .bounded(200, (t) =>
          t.query(
            sql`SELECT count(*) FROM generate_series(1, 5000) a WHERE (SELECT count(*) FROM generate_series(1, 5000) b WHERE b < a) >= 0`,
          ),
        )
        .then(
          () => null,
          (e: unknown) => e as { code?: string },
        );
      assert.equal(error?.code, "57014");
      assert.ok(performance.now() - started < 5_000, "cancelled soon after the deadline");
      const [row] = await db.sql.bounded(1_000, (t) => t.query<{ one: number }>(sql`SELECT 1 AS one`));
      assert.equal(row.one, 1);
    });

    test(`embedded ${where}: a commit acknowledged before the process is SIGKILLed is there after the restart`, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "tl-acked-"));
      try {
        let acknowledged = 0;
        for (const killAfter of [40, 90]) {
          // Killed from the handler that reads the acknowledgement: the child is in its next commit.
          const child = spawn(process.execPath, ["--import", "tsx", "server/db/test-acknowledged-child.ts", dataDir, worker ? "1" : "0"], {
            stdio: ["ignore", "pipe", "inherit"],
          });
          const exited = new Promise((resolve) => child.once("exit", resolve));
          let buffered = "";
          child.stdout.on("data", (chunk: Buffer) => {
            buffered += chunk.toString();
            const lines = buffered.split("\n");
            buffered = lines.pop()!;
            for (const line of lines) if (/^\d+$/.test(line)) acknowledged = Math.max(acknowledged, Number(line));
            if (acknowledged >= killAfter) child.kill("SIGKILL");
          });
          assert.equal(await exited, null, "killed, not exited");
          assert.ok(acknowledged >= killAfter, `${acknowledged} commits acknowledged`);
        }
        const reopened = await openDatabase({ dataDir, worker });
        try {
          const [row] = await reopened.sql.query<{ n: number; missing: number }>(
            sql`SELECT count(*)::int AS n, ${acknowledged}::int - count(*) FILTER (WHERE n <= ${acknowledged})::int AS missing FROM acked`,
          );
          assert.equal(row.missing, 0, `every acknowledged commit of ${acknowledged} is there (${row.n} rows)`);
        } finally {
          await reopened.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
