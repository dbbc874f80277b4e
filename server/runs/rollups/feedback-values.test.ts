import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listMigrations, migrate } from "../../db/migrate";
import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { withTestDatabases } from "../../db/test-databases";
import { AppError } from "../../core/errors";
import { ingestRuns } from "../../ingest/service";
import { insertFeedback } from "../../feedback/store";
import { runSelection, selectionFromWire } from "../schema";
import { runStats, runStatsScan } from "../stats";
import { statsSource } from "./stats";
import { compactRollups } from "./compact";

const wide = (n: number) => "語".repeat(n);

withTestDatabases("feedback keys and string values in the rollups' keys", (open) => {
  test("string values up to 1,500 bytes are counted per value, longer ones (free text) only in n, alike in rollups and scan", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await ingestRuns(db, ws, { post: ids.map((id) => ({ id, name: "r", run_type: "chain", start_time: "2026-05-01T10:00:00Z" })) });
    // The last: free text no compression shrinks below the 2,704 bytes of an index row.
    const values = [wide(500), wide(501), "good", randomBytes(3000).toString("base64")];
    await insertFeedback(
      db,
      ws,
      ids.map((run_id, i) => ({ run_id, key: wide(256), value: values[i], score: 1 })),
    );
    await compactRollups(db);
    const [left] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback_buckets WHERE NOT merged`);
    assert.equal(left.n, 0, "every feedback delta row folded");
    const selection = selectionFromWire(runSelection.parse({}));
    assert.ok(statsSource(ws, selection), "answered by the rollups");
    const [fromRollups, scanned] = [await runStats(db, ws, selection), await runStatsScan(db, ws, selection)];
    const expected = { n: 4, values: { [wide(500)]: 1, good: 1 } };
    for (const stats of [fromRollups, scanned]) {
      const { n, values: counted } = stats.feedback_stats[wide(256)];
      assert.deepEqual({ n, values: counted }, expected);
    }
  });

  test("a feedback key past 256 characters as stored is a 400 naming it, on every writer's path", async () => {
    const db = (await open()).sql;
    const refused = (e: unknown) => e instanceof AppError && e.status === 400 && /feedback key is at most 256 characters/.test(e.detail);
    for (const key of ["k".repeat(257), "\u0000".repeat(200)]) {
      await assert.rejects(insertFeedback(db, randomUUID(), [{ run_id: randomUUID(), key, score: 1 }]), refused);
    }
  });
});

/** Feedback `k` as the older schema holds it (today's insert writes columns it does not have yet). */
async function oldFeedback(db: Sql, items: { run_id: string; value: string; score: number }[]): Promise<void> {
  for (const f of items)
    await db.query(sql`
      INSERT INTO feedback (id, workspace_id, run_id, trace_id, project_id, key, score, value, created_at, modified_at)
      SELECT ${randomUUID()}::uuid, r.workspace_id, r.id, r.trace_id, r.project_id, 'k', ${f.score}, to_jsonb(${f.value}::text), now(), now()
      FROM runs r WHERE r.id = ${f.run_id}::uuid`);
}

withTestDatabases(
  "feedback string values in the rollups, from an older install",
  (open) => {
    test("buckets already merged with a value over 1,500 bytes count it without the value after the migration", async () => {
      const database = await open();
      const db = database.sql;
      const dir = await mkdtemp(path.join(tmpdir(), "tracelight-migrations-"));
      try {
        const all = await listMigrations();
        const before = all.findIndex((m) => m.name.endsWith("_rollup_quarantine"));
        for (const m of all.slice(0, before)) await cp(path.join("prisma/migrations", m.name), path.join(dir, m.name), { recursive: true });
        await migrate(database, dir);
        const ws = randomUUID();
        const ids = [randomUUID(), randomUUID(), randomUUID()];
        const hours = ["2026-05-01T10:00:00Z", "2026-05-01T11:00:00Z", "2026-05-01T11:30:00Z"];
        // The runs as that install's schema holds them (today's ingest writes columns and calls a
        // function added later).
        const project = randomUUID();
        await db.query(sql`INSERT INTO workspaces (id, name) VALUES (${ws}::uuid, 'upgrade')`);
        await db.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'default')`);
        await db.query(sql`
          INSERT INTO runs (id, workspace_id, project_id, trace_id, dotted_order, is_root, name, run_type, status, start_time)
          SELECT id, ${ws}::uuid, ${project}::uuid, id, to_char(start AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS"Z"') || id, true, 'r',
            'chain', 'pending', start
          FROM unnest(${ids}::uuid[], ${hours}::timestamptz[]) AS t(id, start)`);
        const long = wide(600);
        await oldFeedback(db, [
          { run_id: ids[0], value: long, score: 1 },
          { run_id: ids[1], value: "good", score: 0 },
        ]);
        await db.query(sql`SELECT rollup_compact()`);
        // One more, left a delta row, with the long value too.
        await oldFeedback(db, [{ run_id: ids[2], value: long, score: 1 }]);

        await migrate(database);
        await compactRollups(db);
        const selection = selectionFromWire(runSelection.parse({}));
        for (const stats of [await runStats(db, ws, selection), await runStatsScan(db, ws, selection)]) {
          const { n, values, avg } = stats.feedback_stats.k;
          assert.deepEqual({ n, values, avg }, { n: 3, values: { good: 1 }, avg: 2 / 3 });
        }
        const [left] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback_buckets WHERE octet_length(value) > 1500`);
        assert.equal(left.n, 0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
  { migrated: false },
);
