import type { Sql } from "../db/client";
import { raw, sql } from "../db/sql";
import { onEvery } from "../jobs/queue";
import { extendedTrace, LONG_DAYS, SHORT_DAYS } from "./retention";

/** Months made ahead of the one in progress, so that UUIDv7 runs never wait in the default partition. */
const MONTHS_AHEAD = 2;
const MONTH_PARTITION = /^runs_y(\d{4})m(\d{2})$/;
const DAY = 86_400_000;

/** `YYYY-MM-01` of a UTC month. */
const monthOf = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);

/**
 * Makes the partition of `month` (`YYYY-MM-01`) if it does not exist (migration
 * 20261126001000_runs_partitions: `runs_add_month` moves the runs already sent for it out of the
 * default partition, unchanged). Answers whether it made it.
 */
export async function addRunPartition(db: Sql, month: string): Promise<boolean> {
  const [row] = await db.query<{ made: boolean }>(sql`SELECT runs_add_month(${month}::date) AS made`);
  return row!.made;
}

/** Makes the partitions of this month and the next ones that do not exist yet. */
export async function addRunPartitionsAhead(db: Sql, now = new Date()): Promise<void> {
  for (let k = 0; k <= MONTHS_AHEAD; k++) await addRunPartition(db, monthOf(now.getUTCFullYear(), now.getUTCMonth() + k));
}

/** The months that have a partition of their own, oldest first (`YYYY-MM-01`). */
export async function runPartitionMonths(db: Sql): Promise<string[]> {
  return monthsOf(
    await db.query<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'runs'::regclass ORDER BY c.relname`),
  );
}

/** Months detached from `runs` by a process that stopped before dropping them. */
async function detachedMonths(db: Sql): Promise<string[]> {
  return monthsOf(
    await db.query<{ name: string }>(sql`
      SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND NOT relispartition AND relname LIKE 'runs\_y%'`),
  );
}

const monthsOf = (rows: { name: string }[]) =>
  rows.flatMap(({ name }) => {
    const m = MONTH_PARTITION.exec(name);
    return m ? [monthOf(Number(m[1]), Number(m[2]) - 1)] : [];
  });

/**
 * Whether a run of the month's partition is still within its project's retention (the rule of
 * `expireTraces`: no tier keeps everything; "shortlived" 14 days, or `long_lived_retention_days`
 * for an extended trace; "longlived" `long_lived_retention_days`). One pass over the partition,
 * which stops at the first run kept.
 */
async function monthKept(db: Sql, month: string): Promise<boolean> {
  const [year, mm] = month.split("-");
  const partition = raw(`runs_y${year}m${mm}`);
  const longDays = sql`coalesce(p.long_lived_retention_days, ${LONG_DAYS}::int)`;
  const [row] = await db.query<{ kept: boolean }>(sql`
    SELECT EXISTS (
      SELECT 1 FROM ${partition} r JOIN projects p ON p.workspace_id = r.workspace_id AND p.id = r.project_id
      WHERE p.trace_tier IS NULL
        OR r.start_time >= now() - make_interval(days =>
             CASE WHEN p.trace_tier = 'longlived' THEN ${longDays} ELSE least(${SHORT_DAYS}::int, ${longDays}) END)
        OR (r.start_time >= now() - make_interval(days => ${longDays}) AND ${extendedTrace})
    ) AS kept`);
  return row!.kept;
}

/**
 * Drops the partitions of past months none of whose runs is still within its retention, in two
 * transactions (`runs_detach_month`, then `runs_drop_detached`: with their traces, attachment
 * records, queue items, and out of the rollups), after finishing any month a stopped process left
 * detached. The per-trace deletion of `expireTraces` goes on for everything else. Answers the
 * months dropped.
 */
export async function dropExpiredRunPartitions(db: Sql, now = new Date()): Promise<string[]> {
  const dropped: string[] = [];
  const drop = async (month: string) => {
    const [row] = await db.query<{ done: boolean }>(sql`SELECT runs_drop_detached(${month}::date) AS done`);
    if (row!.done) dropped.push(month);
  };
  for (const month of await detachedMonths(db)) await drop(month);
  for (const month of await runPartitionMonths(db)) {
    const [year, mm] = month.split("-").map(Number);
    // The shortest retention is a day: a month that ended less than a day ago holds runs kept.
    if (Date.UTC(year!, mm!, 1) > now.getTime() - DAY) break;
    if (await monthKept(db, month)) continue;
    const [row] = await db.query<{ done: boolean }>(sql`SELECT runs_detach_month(${month}::date) AS done`);
    if (row!.done) await drop(month);
  }
  return dropped;
}

onEvery(
  "run-partitions",
  () => 3600,
  async (db) => {
    await addRunPartitionsAhead(db);
    await dropExpiredRunPartitions(db);
  },
);
