import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { env } from "../../env";
import { rollupRowsQuarantined } from "../../core/metrics";
import { onEvery } from "../../jobs/queue";

const BATCH = 50_000;

/**
 * Folds the rollups' delta rows (one per ingest statement) into one row per key, so reads stay
 * proportional to the keys, not to the writes. Safe to call from every instance: one at a time
 * compacts, the others return at once (an advisory lock inside rollup_compact()).
 *
 * A row the fold cannot merge (migration 20261127000200_rollup_quarantine) is quarantined by the
 * database and skipped from then on, so it is logged and counted here once, and the other rows fold.
 */
export async function compactRollups(db: Sql): Promise<void> {
  // In batches, so a backlog (a bulk load, a worker that was down) never meets the statement timeout.
  for (;;) {
    const [{ folded, quarantined }] = await db.query<{ folded: number; quarantined: string[] }>(
      sql`SELECT folded, quarantined FROM rollup_compact(${BATCH})`,
    );
    for (const line of quarantined) {
      rollupRowsQuarantined.inc({ table: line.slice(0, line.indexOf(" ")) });
      console.error(`Rollup fold: a delta row could not be merged and is left unmerged (still counted by reads): ${line}`);
    }
    if (folded < BATCH) return;
  }
}

onEvery("rollup-compact", () => env().ROLLUP_COMPACT_SECONDS, compactRollups);
