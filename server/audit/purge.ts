import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { onEvery } from "../jobs/queue";

const BATCH = 1000;

/**
 * Deletes the entries older than each workspace's `audit_retention_days` (and those of no
 * workspace after 365 days) through `purge_audit_log`, the one way past the table's append-only
 * trigger, in batches of 1,000, each its own short transaction. Answers how many went.
 */
export async function purgeAuditLog(db: Sql): Promise<number> {
  const owners = await db.query<{ workspace_id: string | null }>(sql`SELECT DISTINCT workspace_id FROM audit_log`);
  let removed = 0;
  for (const { workspace_id } of owners) {
    for (;;) {
      const [row] = await db.query<{ n: number }>(sql`SELECT purge_audit_log(${workspace_id}::uuid, ${BATCH}) AS n`);
      removed += row!.n;
      if (row!.n < BATCH) break;
    }
  }
  return removed;
}

onEvery(
  "audit-retention",
  () => 3600,
  async (db) => void (await purgeAuditLog(db)),
);
