import { setTimeout as sleep } from "node:timers/promises";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { afterIngest } from "../ingest/after-ingest";
import { inFlight, onEvery } from "../jobs/queue";
import { finishedRunAfterExists, finishedRunsAfter } from "../runs/sets";
import { evaluateRules } from "./evaluate";

/**
 * Rules find their runs in the runs table, not in a notification from ingest that a crash could
 * lose: per workspace, a cursor (rule_cursors) over its finished runs by (updated_at, id). One
 * transaction reads the next page after the cursor, lets every enabled rule claim its matches and
 * enqueue their actions, and moves the cursor; a process killed before the commit leaves the
 * cursor where it was, and the page is claimed again. Ingest pays nothing for it but an entry in
 * the partial index `runs_finished_updated_idx`.
 */
const PAGE = 500;
/** A cursor at (t, NIL) has claimed every run written before t. */
const NIL = "00000000-0000-0000-0000-000000000000";

/**
 * A run's updated_at is its writer's transaction start (now()), and writers commit out of order:
 * the cursor may only pass an instant once no transaction that started at or before it can still
 * commit. So the watermark is the oldest start among the database's other open transactions
 * (or now, with none), and runs are claimed strictly before it. Two bounds keep one stuck session from holding every rule back: a
 * transaction that has written nothing for READ_ONLY_AFTER is taken for a reader (ingest writes
 * within its first statements), and none older than OPEN_AT_MOST is waited for.
 */
const READ_ONLY_AFTER = "60 seconds";
const OPEN_AT_MOST = "10 minutes";

async function watermark(db: Sql): Promise<string> {
  const [row] = await db.query<{ w: string }>(sql`
    SELECT least(clock_timestamp(), (
      SELECT min(xact_start) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
        AND xact_start > clock_timestamp() - ${OPEN_AT_MOST}::interval
        AND (backend_xid IS NOT NULL OR xact_start > clock_timestamp() - ${READ_ONLY_AFTER}::interval)
    ))::text AS w`);
  return row.w;
}

/**
 * One page of a workspace's runs after its cursor, claimed by its rules in one transaction with
 * the cursor's move. Another instance claiming the same workspace holds the cursor's row, and
 * this one skips it. Answers whether a full page was claimed (more may follow).
 */
async function claimPage(db: Sql, workspaceId: string, upTo: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [cursor] = await tx.query<{ time: string; id: string }>(sql`
      SELECT claimed_time::text AS time, claimed_id AS id FROM rule_cursors
      WHERE workspace_id = ${workspaceId} AND claimed_time < ${upTo}::timestamptz
      FOR UPDATE SKIP LOCKED`);
    if (!cursor) return false;
    const page = await finishedRunsAfter(tx, workspaceId, cursor, upTo, PAGE);
    await evaluateRules(
      tx,
      workspaceId,
      page.map((r) => r.id),
    );
    const full = page.length === PAGE;
    const last = full ? page[PAGE - 1] : { updated_at: upTo, id: NIL };
    await tx.query(sql`
      UPDATE rule_cursors SET claimed_time = ${last.updated_at}::timestamptz, claimed_id = ${last.id}::uuid
      WHERE workspace_id = ${workspaceId}`);
    return full;
  });
}

/**
 * Claims every workspace's runs up to the watermark. A workspace without an enabled rule just
 * moves its cursor: a rule enabled later acts on runs from then on, as a new one does.
 */
export async function claimRuns(db: Sql): Promise<void> {
  claims.cursors = (await db.prisma.ruleCursor.findFirst({ select: { workspaceId: true } })) !== null;
  if (!claims.cursors) return;
  const upTo = await watermark(db);
  await db.query(sql`
    UPDATE rule_cursors c SET claimed_time = ${upTo}::timestamptz, claimed_id = ${NIL}::uuid
    WHERE c.claimed_time < ${upTo}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM run_rules r WHERE r.workspace_id = c.workspace_id AND r.is_enabled)`);
  // Only the workspaces with runs to claim: an idle one costs an index probe, not a transaction.
  const behind = await db.query<{ workspace_id: string }>(sql`
    SELECT c.workspace_id FROM rule_cursors c
    WHERE c.claimed_time < ${upTo}::timestamptz AND ${finishedRunAfterExists(sql`c.workspace_id`, sql`c.claimed_time`, sql`c.claimed_id`, upTo)}
    ORDER BY c.claimed_time`);
  for (const { workspace_id } of behind) while (await claimPage(db, workspace_id, upTo));
}

/** A rule's workspace gets its cursor when the rule is made (in its transaction): its runs count from then. */
export async function startCursor(db: Sql, workspaceId: string): Promise<void> {
  await db.query(sql`
    INSERT INTO rule_cursors (workspace_id, claimed_time) VALUES (${workspaceId}, now()) ON CONFLICT (workspace_id) DO NOTHING`);
}

/**
 * One claim at a time per process. A wake-up during one runs another after it, but not sooner than
 * CLAIM_GAP_MS after the last one began: under steady ingest every commit wakes the claim, and its
 * statements (a watermark, the cursors, a probe of the runs) would otherwise follow every request
 * back to back — on the embedded database ~20 ms of its one thread each time. `cursors` is whether
 * the last claim found any cursor (none until a rule is made): without one, ingest wakes nothing
 * and the periodic round is one probe.
 */
const CLAIM_GAP_MS = 250;
const state = globalThis as unknown as {
  tracelightClaims?: { db: Sql | null; running: Promise<void> | null; again: boolean; cursors: boolean };
};
const claims = (state.tracelightClaims ??= { db: null, running: null, again: false, cursors: true });

function wake(db: Sql): Promise<void> {
  claims.db = db;
  if (claims.running) {
    claims.again = true;
    return claims.running;
  }
  claims.running = inFlight(
    (async () => {
      try {
        do {
          claims.again = false;
          const began = Date.now();
          await claimRuns(db);
          if (claims.again) await sleep(Math.max(0, began + CLAIM_GAP_MS - Date.now()));
        } while (claims.again);
      } finally {
        claims.running = null;
      }
    })(),
  );
  return claims.running;
}

/** Every second, in each process that runs jobs (several processes may: the cursor rows keep them apart). */
onEvery("rule claims", () => 1, wake);

/**
 * Ingest's commit wakes the claim in a process that runs jobs (once a workspace has a rule), so a
 * rule acts within moments; elsewhere (a web instance beside workers) the workers' next round finds the runs.
 * The runs table is the record either way: nothing here needs to survive a crash.
 */
afterIngest("Automation rules", async () => {
  if (claims.db && claims.cursors) await wake(claims.db);
});
