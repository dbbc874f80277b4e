import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase, type Database, type Sql } from "./client";
import { sql } from "./sql";
import { lsnBytes } from "./replicas";
import { postgresTools, startReplicatedPostgres, type ReplicatedPostgres } from "./test-replica";
import { prometheus } from "../core/metrics";
import { eventually } from "../../e2e/harness/http";

test("WAL positions compare as numbers of bytes", () => {
  assert.equal(lsnBytes("0/0"), 0n);
  assert.equal(lsnBytes("0/3016060"), 0x3016060n);
  assert.equal(lsnBytes("16/B374D848"), (0x16n << 32n) + 0xb374d848n);
  assert.ok(lsnBytes("1/0") > lsnBytes("0/FFFFFFFF"));
});

const inRecovery = async (db: Sql) => (await db.query<{ standby: boolean }>(sql`SELECT pg_is_in_recovery() AS standby`))[0].standby;
const readsCounted = async (target: string) => {
  const metric = await prometheus.register.getSingleMetric("tracelight_db_reads_total")?.get();
  return metric?.values.find((v) => v.labels.target === target)?.value ?? 0;
};

// A real primary and streaming replica (pg_basebackup -R) started for this suite.
describe("reads from a streaming replica", { skip: postgresTools() ? false : "PostgreSQL's server tools are not installed" }, () => {
  let cluster: ReplicatedPostgres;
  let db: Database;
  before(async () => {
    process.env.DATABASE_REPLICA_MAX_LAG_MS = "400";
    cluster = await startReplicatedPostgres();
    db = await openDatabase({ url: cluster.primaryUrl, replicaUrls: [cluster.replicaUrl] });
    await db.sql.query(sql`CREATE TABLE notes (id int PRIMARY KEY, body text)`);
  });
  after(async () => {
    await db?.close();
    await cluster?.stop();
  });

  test("a request's reads go to the replica once it is measured fresh; writes and transactions stay on the primary", async () => {
    // Fresh means within the lag bound, not caught up: wait until the table made above is there too.
    await eventually(
      async () => {
        const reads = db.reads();
        return (await inRecovery(reads)) && (await reads.query<{ ok: boolean }>(sql`SELECT to_regclass('notes') IS NOT NULL AS ok`))[0].ok;
      },
      10_000,
      "the replica to be measured fresh, with the table",
    );
    const before = await readsCounted("replica");
    const reads = db.reads();
    assert.equal(await inRecovery(reads), true);
    assert.equal(await readsCounted("replica"), before + 1);
    assert.equal(await reads.tx(inRecovery), false, "a transaction runs on the primary");
    assert.equal(await inRecovery(db.sql), false);
    // A statement that writes cannot run on the replica: it is run on the primary instead.
    await reads.query(sql`INSERT INTO notes VALUES (1, 'written through reads')`);
    const [{ body }] = await db.sql.query<{ body: string }>(sql`SELECT body FROM notes WHERE id = 1`);
    assert.equal(body, "written through reads");
  });

  test("what the primary commits reaches the replica's reads within the lag bound", async () => {
    await db.sql.query(sql`INSERT INTO notes VALUES (2, 'replicated')`);
    const reads = await eventually(
      async () => {
        const reads = db.reads();
        return (await inRecovery(reads)) && (await reads.query(sql`SELECT 1 FROM notes WHERE id = 2`)).length === 1 && reads;
      },
      10_000,
      "the note on the replica",
    );
    assert.deepEqual(await reads.query(sql`SELECT body FROM notes WHERE id = 2`), [{ body: "replicated" }]);
  });

  test("a replica further behind than the bound is skipped until it catches up", async () => {
    await eventually(() => inRecovery(db.reads()), 10_000, "the replica to be measured fresh");
    await cluster.pauseReplay();
    try {
      await db.sql.query(sql`INSERT INTO notes VALUES (3, 'while paused')`);
      await sleep(900);
      const primaryBefore = await readsCounted("primary");
      const reads = db.reads();
      assert.equal(await inRecovery(reads), false, "reads go to the primary while the replica lags");
      assert.deepEqual(await reads.query(sql`SELECT body FROM notes WHERE id = 3`), [{ body: "while paused" }]);
      assert.equal(await readsCounted("primary"), primaryBefore + 1);
      assert.ok((db.replicaLag()[0].lagMs ?? Infinity) > 400);
    } finally {
      await cluster.resumeReplay();
    }
    await eventually(() => inRecovery(db.reads()), 10_000, "the replica to catch up");
    assert.ok((db.replicaLag()[0].lagMs ?? Infinity) <= 400);
  });
});
