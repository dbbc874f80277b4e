import type { PrismaClient, Prisma } from "./generated/client";
import type { SqlFragment } from "./sql";

/**
 * The storage handle every service receives: Prisma Client for the ordinary reads and writes of
 * its tables (`db.prisma.chartSet.findMany(…)`, transactions through `db.prisma.$transaction`),
 * and `query` for set-based SQL (ingest upserts, the filter compiler, statistics, charts), on
 * PostgreSQL and embedded PGlite alike.
 */
/** Prisma Client or one of its transactions (`prisma.$transaction(async (tx) => …)`): what a step of a use case writes through. */
export type Tx = Prisma.TransactionClient;

export interface Sql {
  /** Prisma Client on the same database. Not available inside `tx` (another connection). */
  readonly prisma: PrismaClient;
  query<T = Record<string, unknown>>(query: SqlFragment): Promise<T[]>;
  /**
   * Driver-level SQL text with `$n` parameters, for a library that brings its own SQL (the job
   * queue); without values the text may hold several statements. Never built from a request.
   */
  text(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Driver-level SQL text (one statement) answered as arrays of PostgreSQL's text form of each
   * value, unparsed (so two columns of one name stay two), with each column's name and type OID.
   */
  arrays(text: string): Promise<ArrayResult>;
  /**
   * Runs `fn` in one transaction of `query`s; nested calls reuse the outer transaction. With
   * `rollback`, the transaction is rolled back when `fn` is done: nothing it wrote stays.
   */
  tx<T>(fn: (sql: Sql) => Promise<T>, options?: { rollback?: boolean }): Promise<T>;
  /**
   * Runs `fn` in one `prisma.$transaction` that the executor joins: inside, `sql.prisma` (Prisma
   * Client) and `sql.query` (set-based SQL) run on the same connection, so a use case writes its
   * rows through Prisma and its set-based steps in SQL and both commit or neither. Nested calls
   * (and calls inside `tx`) reuse the outer transaction. `tx` stays for the hot path (ingest),
   * which is faster without Prisma's transaction bookkeeping.
   */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * `fn` in a transaction that is rolled back, its statements cancelled after `ms` (statement_timeout;
   * on the embedded database a deadline, one such transaction at a time: server/db/deadline.mjs).
   */
  bounded<T>(ms: number, fn: (sql: Sql) => Promise<T>): Promise<T>;
}

export interface ArrayResult {
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[][];
}

export interface Database {
  sql: Sql;
  /**
   * Ingest's own connections (PostgreSQL): slow reads filling the main pool never hold a run
   * waiting. The embedded database has one connection, so this is `sql` there.
   */
  ingestSql: Sql;
  /**
   * Where a request that only reads (a list, a query, statistics, a chart) reads from: a streaming
   * replica caught up to within DATABASE_REPLICA_MAX_LAG_MS when DATABASE_REPLICA_URLS names any,
   * else `sql`. Chosen once per request, so its reads see one consistent database.
   */
  reads(): Sql;
  prisma: PrismaClient;
  /** Executes trusted multi-statement SQL text (migrations). */
  execScript(text: string): Promise<void>;
  /** The PostgreSQL pools' connections (none on the embedded database), for /metrics. */
  poolStats(): { name: string; total: number; idle: number; waiting: number }[];
  /** Each replica's measured lag (undefined: unknown or unreachable), for /metrics. */
  replicaLag(): { name: string; lagMs?: number }[];
  close(): Promise<void>;
}

/** A value as PostgreSQL's text form gives it (no parsing). */
export const asText = (value: string) => value;

/**
 * Gives an executor its Prisma Client. Inside `Sql.tx` Prisma would run on another connection,
 * outside the transaction, so there it is refused loudly.
 */
export function withPrisma(self: Omit<Sql, "prisma">, prisma: PrismaClient | undefined): Sql {
  return Object.defineProperty(
    self,
    "prisma",
    prisma
      ? { value: prisma }
      : {
          get() {
            throw new Error("Prisma Client is not part of an Sql.tx transaction: write the use case with prisma.$transaction instead.");
          },
        },
  ) as Sql;
}

/** A transaction that must roll back cannot be part of an outer one that commits. */
export function refuseNestedRollback(): never {
  throw new Error("A rolled-back transaction cannot be nested in another transaction.");
}
