import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { env } from "../../env";
import { rollupRowsQuarantined } from "../../core/metrics";
import { onEvery } from "../../jobs/queue";

const BATCH = 50_000;
/** Delta rows folded in one call past which the rollup tables are vacuumed and analyzed where nothing else does it. */
const MAINTAIN_AFTER = 20_000;
const ROLLUP_TABLES = "run_buckets, run_sketches, run_dim_sketches, feedback_buckets, feedback_dim_buckets";
const autovacuums = new WeakMap<Sql, boolean>();

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
  let total = 0;
  for (;;) {
    const [{ folded, quarantined }] = await db.query<{ folded: number; quarantined: string[] }>(
      sql`SELECT folded, quarantined FROM rollup_compact(${BATCH})`,
    );
    for (const line of quarantined) {
      rollupRowsQuarantined.inc({ table: line.slice(0, line.indexOf(" ")) });
      console.error(`Rollup fold: a delta row could not be merged and is left unmerged (still counted by reads): ${line}`);
    }
    total += folded;
    if (folded < BATCH) break;
  }
  if (total >= MAINTAIN_AFTER) await maintain(db);
}

/**
 * After a large fold, where no autovacuum runs (the embedded database): the fold deleted as many
 * delta rows as it wrote merged ones, and tables never analyzed are planned as empty — the readers'
 * index of the single-dimension rollups then loses to scans of dead rows. PostgreSQL's autovacuum
 * does this on its own.
 */
async function maintain(db: Sql): Promise<void> {
  let autovacuum = autovacuums.get(db);
  if (autovacuum === undefined) {
    const [row] = await db.query<{ on: boolean }>(
      sql`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE backend_type = 'autovacuum launcher') AS on`,
    );
    autovacuum = row.on;
    autovacuums.set(db, autovacuum);
  }
  if (autovacuum) return;
  try {
    await db.text(`VACUUM (ANALYZE) ${ROLLUP_TABLES}`);
  } catch {
    // Inside a transaction (VACUUM cannot be): the statistics at least.
    await db.text(`ANALYZE ${ROLLUP_TABLES}`).catch((error) => console.error("Rollup fold: ANALYZE of the rollups failed", error));
  }
}

onEvery("rollup-compact", () => env().ROLLUP_COMPACT_SECONDS, compactRollups);
