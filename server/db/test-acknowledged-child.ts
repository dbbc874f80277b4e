/**
 * Child process of remote-pglite.test.ts: commits rows on the embedded database under `dataDir` (in
 * its worker thread with "1") — by turns in `tx`, in a joined `transaction` and as a lone statement —
 * and prints each row's number once its commit is acknowledged, until it is killed.
 */
import { openEmbedded } from "./embedded";
import { sql } from "./sql";

const [dataDir, worker] = process.argv.slice(2);
const db = await openEmbedded(dataDir!, undefined, worker === "1");
// A deferred trigger makes each COMMIT itself take a while (tens of ms): an acknowledgement sent
// before the commit's work is done would be read, and the process killed, while it still runs.
await db.execScript(`
  CREATE TABLE IF NOT EXISTS acked (n int PRIMARY KEY, pad text);
  CREATE OR REPLACE FUNCTION acked_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM count(*) FROM generate_series(1, 100000); RETURN NULL; END $$;
  DROP TRIGGER IF EXISTS acked_slow_commit ON acked;
  CREATE CONSTRAINT TRIGGER acked_slow_commit AFTER INSERT ON acked DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION acked_slow_commit();`);
const [{ next }] = await db.sql.query<{ next: number }>(sql`SELECT coalesce(max(n), 0) + 1 AS next FROM acked`);
process.stdout.write("ready\n");
const pad = "x".repeat(2000);
for (let n = next; ; n++) {
  const insert = sql`INSERT INTO acked VALUES (${n}, ${pad})`;
  if (n % 3 === 0) await db.sql.tx((tx) => tx.query(insert));
  else if (n % 3 === 1) await db.sql.transaction((tx) => tx.query(insert));
  else await db.sql.query(insert);
  // A pipe is written synchronously on Linux: once the parent reads n, the commit was acknowledged.
  process.stdout.write(`${n}\n`);
}
