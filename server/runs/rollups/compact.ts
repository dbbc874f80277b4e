import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { env } from "../../env";
import { onEvery } from "../../jobs/queue";

const BATCH = 50_000;

/**
 * Folds the rollups' delta rows (one per ingest statement) into one row per key, so reads stay
 * proportional to the keys, not to the writes. Safe to call from every instance: one at a time
 * compacts, the others return at once (an advisory lock inside rollup_compact()).
 */
export async function compactRollups(db: Sql): Promise<void> {
  // In batches, so a backlog (a bulk load, a worker that was down) never meets the statement timeout.
  for (;;) {
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT rollup_compact(${BATCH}) AS n`);
    if (n < BATCH) return;
  }
}

onEvery("rollup-compact", () => env().ROLLUP_COMPACT_SECONDS, compactRollups);
