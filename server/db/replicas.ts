import type { Pool } from "pg";
import { metric, prometheus } from "../core/metrics";
import type { Sql } from "./client";

/** A streaming replica the service may read from: its connections and how far behind it is. */
export interface Replica {
  name: string;
  pool: Pool;
  sql: Sql;
  /** Milliseconds the replica is at most behind the primary; undefined until measured or when unreachable. */
  lagMs?: number;
}

const reads = metric(
  "tracelight_db_reads_total",
  (name) =>
    new prometheus.Counter({
      name,
      help: "Requests whose reads went to a replica or, with none fresh enough, to the primary",
      labelNames: ["target"],
    }),
);

/** A WAL position ("16/B374D848") as a number of bytes. */
export const lsnBytes = (lsn: string): bigint => {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

const SAMPLE_EVERY_MS = 200;

/**
 * Measures each replica's lag against the primary and picks a fresh one for a request's reads.
 *
 * Every 200 ms the primary's WAL position is sampled, then each replica's replayed position: a
 * replica that has replayed the position the primary had at time t holds every transaction committed
 * before t, so `now - t` (for the latest such sample) bounds its lag from above, whether the primary
 * is busy or idle. A replica more than `maxLagMs` behind, or unreachable, is skipped until it
 * catches up; with none fresh, reads go to the primary.
 */
export function replicaSet(primary: Pool, replicas: Replica[], maxLagMs: number): { pick(): Replica | undefined; close(): void } {
  const samples: { at: number; lsn: bigint }[] = [];
  let next = 0;
  let running = false;

  const measure = async () => {
    if (running) return;
    running = true;
    try {
      const [{ lsn }] = (await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows;
      samples.push({ at: Date.now(), lsn: lsnBytes(lsn) });
      while (samples.length > 2 && samples[1].at < Date.now() - 2 * maxLagMs - SAMPLE_EVERY_MS) samples.shift();
      await Promise.all(replicas.map(measureReplica));
    } catch {
      // The primary is unreachable: the replicas' lag cannot be known, so none is used.
      for (const replica of replicas) replica.lagMs = undefined;
    } finally {
      running = false;
    }
  };

  const measureReplica = async (replica: Replica) => {
    try {
      const [{ lsn }] = (await replica.pool.query<{ lsn: string | null }>("SELECT pg_last_wal_replay_lsn()::text AS lsn")).rows;
      const replayed = lsn === null ? -1n : lsnBytes(lsn);
      const caughtUp = samples.findLast((sample) => sample.lsn <= replayed);
      replica.lagMs = caughtUp ? Date.now() - caughtUp.at : undefined;
    } catch {
      replica.lagMs = undefined;
    }
  };

  const timer = setInterval(measure, SAMPLE_EVERY_MS);
  timer.unref();
  void measure();

  return {
    pick() {
      const fresh = replicas.filter((replica) => replica.lagMs !== undefined && replica.lagMs <= maxLagMs);
      const chosen = fresh.length ? fresh[next++ % fresh.length] : undefined;
      reads.inc({ target: chosen ? "replica" : "primary" });
      return chosen;
    },
    close: () => clearInterval(timer),
  };
}

/**
 * Errors after which a read is tried again on the primary: the replica went away, replay cancelled
 * the query, or it tried to write (25006: nothing happened on the replica, so the primary may).
 */
const RETRY_ON_PRIMARY = new Set(["ECONNREFUSED", "ECONNRESET", "57P01", "57P02", "57P03", "40001", "08006", "08001", "25006"]);

/**
 * A replica's reads, each tried again on the primary when the replica fails it for its own reasons
 * (gone, restarting, a query cancelled by a conflict with recovery); the replica is then skipped
 * until it is measured fresh again. Transactions always run on the primary.
 */
export function readsFrom(replica: Replica, primary: Sql): Sql {
  const orPrimary =
    <A extends unknown[], T>(onReplica: (...args: A) => Promise<T>, onPrimary: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await onReplica(...args);
      } catch (error) {
        if (!RETRY_ON_PRIMARY.has((error as { code?: string }).code ?? "")) throw error;
        replica.lagMs = undefined;
        return onPrimary(...args);
      }
    };
  return {
    prisma: replica.sql.prisma,
    query: orPrimary(replica.sql.query, primary.query) as Sql["query"],
    text: orPrimary(replica.sql.text, primary.text),
    arrays: orPrimary(replica.sql.arrays, primary.arrays),
    tx: primary.tx,
    transaction: primary.transaction,
    bounded: primary.bounded,
  };
}
