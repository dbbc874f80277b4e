import type { PGlite, Transaction } from "@electric-sql/pglite";
import { PrismaClient } from "./generated/client";
import { boundedTransaction, openCancellable } from "./deadline.mjs";
import { asText, refuseNestedRollback, withPrisma, type Database, type Sql } from "./handle";
import { initializeDataDir } from "./initdb";
import { joinable, joinedTransaction } from "./join";
import { compile, type SqlFragment } from "./sql";
import { openInWorker, type PGliteHandle } from "./remote-pglite";
import { isJsonbBytes } from "./storable";

type Parsers = Record<number, (value: string) => unknown>;

/** The PGlite a handle opens transactions on, and the turn each of them waits for. */
interface Owner {
  pglite: PGliteHandle;
  inTurn: <T>(fn: () => Promise<T>) => Promise<T>;
}

/**
 * Transactions enter PGlite one at a time. PGlite runs every statement and transaction on one
 * connection, first come first served: ten queued ingest transactions would each run before a read
 * that came after the first. Queued here instead, a read waits behind the running one only.
 */
function oneAtATime(): Owner["inTurn"] {
  let last: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const turn = last.then(fn);
    last = turn.catch(() => undefined);
    return turn;
  };
}

/** PGlite takes a jsonb parameter as its text (node-postgres sends the bytes). */
const forPglite = (value: unknown) => (isJsonbBytes(value) ? value.text() : value);

/** PGlite parses the types it knows (its own, and the array types it found) unless told otherwise: each read as text. */
function textParsers(pglite: { parsers: object }): Parsers {
  return Object.fromEntries(Object.keys(pglite.parsers).map((oid) => [Number(oid), asText]));
}

function pgliteSql(db: Pick<PGlite, "query" | "exec">, rawParsers: Parsers, owner?: Owner, prisma?: PrismaClient, joined = false): Sql {
  const self: Sql = withPrisma(
    {
      async query<T>(query: SqlFragment) {
        const { text, values } = compile(query);
        return (await db.query<T>(text, values.map(forPglite))).rows;
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
        return owner.inTurn(() =>
          owner.pglite.transaction(async (tx) => {
            const result = await fn(pgliteSql(tx, rawParsers));
            if (options?.rollback) await tx.rollback();
            return result;
          }),
        );
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
        return owner.pglite.bounded(ms, (tx) => fn(pgliteSql(tx, rawParsers)));
      },
    },
    prisma,
  );
  return self;
}

/** PGlite in the server's own thread, as the worker runs it (the default; EMBEDDED_WORKER=1 for the worker). */
async function openInThread(dataDir: string, sharedBuffers: string | undefined, textTypes: number[]): Promise<PGliteHandle> {
  const pglite = await openCancellable(dataDir, Object.fromEntries(textTypes.map((oid) => [oid, asText])), sharedBuffers);
  return Object.assign(pglite, {
    bounded: <T>(ms: number, fn: (tx: Transaction) => Promise<T>) => boundedTransaction(pglite, ms, fn),
  });
}

/**
 * PGlite under `dataDir` ("memory" for none): in the server's own thread, or with `worker` in a worker
 * thread (server/db/remote-pglite.ts), so its statements run on another core than the server's JavaScript.
 */
export async function openEmbedded(dataDir: string, sharedBuffers?: string, worker = false): Promise<Database> {
  if (dataDir !== "memory") await initializeDataDir(dataDir);
  const [{ types }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  // Times are read as their text: they keep PostgreSQL's microseconds (a Date would cut them to milliseconds).
  const textTypes = [types.TIMESTAMPTZ, types.TIMESTAMP];
  const pglite = worker ? await openInWorker(dataDir, sharedBuffers, textTypes) : await openInThread(dataDir, sharedBuffers, textTypes);
  // The adapter calls query, exec and transaction, which the worker's handle answers as PGlite does.
  const prisma = new PrismaClient({ adapter: joinable(new PrismaPGlite(pglite as unknown as PGlite)) });
  const sql = pgliteSql(pglite, textParsers(pglite), { pglite, inTurn: oneAtATime() }, prisma);
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
