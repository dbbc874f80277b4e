import type { PGlite } from "@electric-sql/pglite";
import type { Pool, PoolClient, QueryArrayConfig } from "pg";
import { env } from "../env";
import { PrismaClient, type Prisma } from "./generated/client";
import { compile, type SqlFragment } from "./sql";
import { joinable, joinedTransaction } from "./join";
import { readsFrom, replicaSet, type Replica } from "./replicas";
import { boundedTransaction, openCancellable } from "./deadline";
import { initializeDataDir } from "./initdb";

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
   * on the embedded database a deadline, one such transaction at a time: server/db/deadline.ts).
   */
  bounded<T>(ms: number, fn: (sql: Sql) => Promise<T>): Promise<T>;
}

export interface ArrayResult {
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[][];
}

/**
 * Gives an executor its Prisma Client. Inside `Sql.tx` Prisma would run on another connection,
 * outside the transaction, so there it is refused loudly.
 */
function withPrisma(self: Omit<Sql, "prisma">, prisma: PrismaClient | undefined): Sql {
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

type Run = (text: string | QueryArrayConfig, values?: unknown[]) => Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;

const asText = (value: string) => value;

type Parsers = Record<number, (value: string) => unknown>;

/** PGlite parses the types it knows (its own, and the array types it found) unless told otherwise: each read as text. */
function textParsers(pglite: PGlite): Parsers {
  return Object.fromEntries(Object.keys(pglite.parsers).map((oid) => [Number(oid), asText]));
}

/** A transaction that must roll back cannot be part of an outer one that commits. */
function refuseNestedRollback(): never {
  throw new Error("A rolled-back transaction cannot be nested in another transaction.");
}

function pgSql(run: Run, pool?: Pool, prisma?: PrismaClient, joined = false): Sql {
  const self: Sql = withPrisma(
    {
      async query<T>(query: SqlFragment) {
        const { text, values } = compile(query);
        return ((await run(text, values)) as { rows: unknown[] }).rows as T[];
      },
      async text(text: string, values?: unknown[]) {
        // Several statements answer one result each: the last one's rows are the answer.
        const result = await run(text, values?.length ? values : undefined);
        return Array.isArray(result) ? (result.at(-1) ?? { rows: [] }) : result;
      },
      async arrays(text: string) {
        // The extended protocol runs exactly one statement (pg's own typings lack `queryMode`).
        const config: QueryArrayConfig & { queryMode: "extended" } = {
          text,
          rowMode: "array",
          queryMode: "extended",
          types: { getTypeParser: () => asText },
        };
        return (await run(config)) as ArrayResult;
      },
      async tx<T>(fn: (sql: Sql) => Promise<T>, options?: { rollback?: boolean }) {
        if (!pool) return options?.rollback ? refuseNestedRollback() : fn(self);
        const client: PoolClient = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await fn(pgSql((t, v) => client.query(t, v)));
          await client.query(options?.rollback ? "ROLLBACK" : "COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
      async transaction<T>(fn: (sql: Sql) => Promise<T>) {
        if (joined || !pool || !prisma) return fn(self);
        return joinedTransaction(
          prisma,
          (connection, tx) => pgSql((t, v) => (connection as PoolClient).query(t, v), undefined, tx, true),
          fn,
        );
      },
      async bounded<T>(ms: number, fn: (sql: Sql) => Promise<T>) {
        const timed = async (t: Sql) => (await t.text(`SET LOCAL statement_timeout = ${Math.round(ms)}`), fn(t));
        return self.tx(timed, { rollback: true });
      },
    },
    prisma,
  );
  return self;
}

async function openPostgres(url: string, replicaUrls: string[]): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  // timestamptz and numeric come back as strings: services parse them where they need to.
  pg.types.setTypeParser(1184, (v: string) => v);
  pg.types.setTypeParser(1114, (v: string) => v);
  const open = (max: number, statementTimeoutMs: number) => {
    // A connection attempt is bounded, so while PostgreSQL is unreachable requests fail fast (503).
    const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, statement_timeout: statementTimeoutMs });
    survivesLostConnections(pool, "PostgreSQL");
    return pool;
  };
  const pool = open(10, env().STATEMENT_TIMEOUT_MS);
  const ingestPool = open(4, 5 * 60_000);
  const prisma = new PrismaClient({ adapter: joinable(new PrismaPg(pool)) });
  const sql = pgSql((t, v) => pool.query(t, v), pool, prisma);
  const replicas: Replica[] = replicaUrls.map((replicaUrl, i) => {
    const replicaPool = new pg.Pool({
      connectionString: replicaUrl,
      max: 10,
      connectionTimeoutMillis: 5_000,
      statement_timeout: env().STATEMENT_TIMEOUT_MS,
    });
    survivesLostConnections(replicaPool, "A PostgreSQL replica");
    const replicaPrisma = new PrismaClient({ adapter: new PrismaPg(replicaPool) });
    return { name: `replica-${i + 1}`, pool: replicaPool, sql: pgSql((t, v) => replicaPool.query(t, v), replicaPool, replicaPrisma) };
  });
  const watch = replicas.length ? replicaSet(pool, replicas, env().DATABASE_REPLICA_MAX_LAG_MS) : undefined;
  return {
    sql,
    reads: () => {
      const replica = watch?.pick();
      return replica ? readsFrom(replica, sql) : sql;
    },
    ingestSql: pgSql((t, v) => ingestPool.query(t, v), ingestPool, prisma),
    prisma,
    // Migrations may take longer than any request is allowed to.
    execScript: async (text) => {
      const client = await ingestPool.connect();
      try {
        await client.query("SET statement_timeout = 0");
        await client.query(text);
      } finally {
        await client.query("RESET statement_timeout").catch(() => undefined);
        client.release();
      }
    },
    poolStats: () => [
      connections("requests", pool),
      connections("ingest", ingestPool),
      ...replicas.map((r) => connections(r.name, r.pool)),
    ],
    replicaLag: () => replicas.map(({ name, lagMs }) => ({ name, lagMs })),
    close: async () => {
      watch?.close();
      await Promise.all([prisma, ...replicas.map((r) => r.sql.prisma)].map((client) => client.$disconnect()));
      await Promise.all([pool.end(), ingestPool.end(), ...replicas.map((r) => r.pool.end())]);
    },
  };
}

/**
 * A connection the server closes (restart, crash, failover, a dropped database) must not take the
 * process down: an idle one is replaced by the pool; one checked out (a transaction between two
 * statements) emits "error" on its client, with no listener an uncaughtException, so every client
 * gets one. Its caller's next query fails with its own error (503 while the database is away).
 */
function survivesLostConnections(pool: Pool, who: string): void {
  pool.on("error", () => undefined); // the pool re-emits an idle client's error: the client's listener logs it
  pool.on("connect", (client) => client.on("error", (error) => console.warn(`${who} closed a connection: ${error.message}`)));
}

const connections = (name: string, pool: Pool) => ({ name, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

function pgliteSql(db: Pick<PGlite, "query" | "exec">, rawParsers: Parsers, owner?: PGlite, prisma?: PrismaClient, joined = false): Sql {
  const self: Sql = withPrisma(
    {
      async query<T>(query: SqlFragment) {
        const { text, values } = compile(query);
        return (await db.query<T>(text, values)).rows;
      },
      async text(text: string, values?: unknown[]) {
        if (values?.length) return db.query(text, values);
        return (await db.exec(text)).at(-1) ?? { rows: [] };
      },
      async arrays(text: string) {
        return db.query<unknown[]>(text, [], { rowMode: "array", parsers: rawParsers });
      },
      async tx<T>(fn: (sql: Sql) => Promise<T>, options?: { rollback?: boolean }) {
        if (!owner) return options?.rollback ? refuseNestedRollback() : fn(self);
        return owner.transaction(async (tx) => {
          const result = await fn(pgliteSql(tx, rawParsers));
          if (options?.rollback) await tx.rollback();
          return result;
        });
      },
      async transaction<T>(fn: (sql: Sql) => Promise<T>) {
        if (joined || !owner || !prisma) return fn(self);
        return joinedTransaction(
          prisma,
          (connection, tx) => pgliteSql(connection as Pick<PGlite, "query" | "exec">, rawParsers, undefined, tx, true),
          fn,
        );
      },
      async bounded<T>(ms: number, fn: (sql: Sql) => Promise<T>) {
        if (!owner) return refuseNestedRollback();
        return boundedTransaction(owner, ms, (tx) => fn(pgliteSql(tx, rawParsers)));
      },
    },
    prisma,
  );
  return self;
}

async function openEmbedded(dataDir: string): Promise<Database> {
  if (dataDir !== "memory") await initializeDataDir(dataDir);
  const [{ types }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const pglite = await openCancellable(dataDir, { [types.TIMESTAMPTZ]: (v: string) => v, [types.TIMESTAMP]: (v: string) => v });
  const prisma = new PrismaClient({ adapter: joinable(new PrismaPGlite(pglite)) });
  const sql = pgliteSql(pglite, textParsers(pglite), pglite, prisma);
  return {
    sql,
    ingestSql: sql,
    reads: () => sql,
    prisma,
    execScript: async (text) => void (await pglite.exec(text)),
    poolStats: () => [],
    replicaLag: () => [],
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

/** Opens PostgreSQL when a URL is given, else PGlite under `dataDir` ("memory" for none). */
export async function openDatabase(options: { url?: string; replicaUrls?: string[]; dataDir?: string } = {}): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.replicaUrls ?? []);
  const { mkdirSync } = await import("node:fs");
  const dataDir = options.dataDir ?? "./data";
  if (dataDir !== "memory") mkdirSync(dataDir, { recursive: true });
  return openEmbedded(dataDir);
}

const globalForDb = globalThis as unknown as { tracelightDb?: Promise<Database> };

/**
 * The process-wide database, migrated on first use. When opening or migrating fails (PostgreSQL
 * not up yet) the next call tries again, so the server recovers by itself once it is.
 */
export function database(): Promise<Database> {
  globalForDb.tracelightDb ??= (async () => {
    const { migrate } = await import("./migrate");
    const db = await openDatabase({ url: env().DATABASE_URL, replicaUrls: env().DATABASE_REPLICA_URLS, dataDir: `${env().DATA_DIR}/pg` });
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    return db;
  })();
  const opening = globalForDb.tracelightDb;
  opening.catch(() => {
    if (globalForDb.tracelightDb === opening) globalForDb.tracelightDb = undefined;
  });
  return opening;
}

export async function getSql(): Promise<Sql> {
  return (await database()).sql;
}
