import type { Pool, PoolClient, QueryArrayConfig } from "pg";
import { env } from "../env";
import { PrismaClient } from "./generated/client";
import { asText, refuseNestedRollback, withPrisma, type ArrayResult, type Database, type Sql } from "./handle";
import { joinable, joinedTransaction } from "./join";
import { readsFrom, replicaSet, type Replica } from "./replicas";
import { compile, type SqlFragment } from "./sql";

type Run = (text: string | QueryArrayConfig, values?: unknown[]) => Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;

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

/** PostgreSQL: the requests' pool, ingest's own, and the streaming replicas that are named. */
export async function openPostgres(url: string, replicaUrls: string[]): Promise<Database> {
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
