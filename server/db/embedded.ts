import type { PGlite, SerializerOptions } from "@electric-sql/pglite";
import { PrismaClient } from "./generated/client";
import { boundedTransaction, openCancellable } from "./deadline";
import { asText, refuseNestedRollback, withPrisma, type Database, type Sql } from "./handle";
import { initializeDataDir } from "./initdb";
import { joinable, joinedTransaction } from "./join";
import { compile, type SqlFragment } from "./sql";
import { JsonbBytes } from "./storable";

type Parsers = Record<number, (value: string) => unknown>;

/** A jsonb parameter at least this long goes to PGlite as bytes (see `jsonbAsBytes`). */
const JSONB_BYTES_FROM = 4096;

/**
 * PGlite measures a text parameter's UTF-8 length in a JavaScript loop over its characters (twice):
 * for ingest's rows, one jsonb parameter of ~200 kB per 100 runs, that loop was ~8 % of a request's
 * CPU. A long jsonb value is sent in binary format instead (a version byte, then the same text
 * PostgreSQL would parse), which Buffer encodes natively; shorter ones as PGlite serialises them.
 */
function jsonbAsBytes(pglite: PGlite, jsonb: number): SerializerOptions {
  const serialize = pglite.serializers[jsonb];
  return {
    [jsonb]: (value: unknown) => {
      if (typeof value !== "string" || value.length < JSONB_BYTES_FROM) return serialize(value);
      const bytes = Buffer.allocUnsafe(1 + Buffer.byteLength(value));
      bytes[0] = 1;
      bytes.write(value, 1);
      // PGlite binds a Uint8Array in binary format (its types name only the text form).
      return bytes as unknown as string;
    },
  };
}

/** The PGlite a handle opens transactions on, and the turn each of them waits for. */
interface Owner {
  pglite: PGlite;
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
const forPglite = (value: unknown) => (value instanceof JsonbBytes ? value.text() : value);

/** PGlite parses the types it knows (its own, and the array types it found) unless told otherwise: each read as text. */
function textParsers(pglite: PGlite): Parsers {
  return Object.fromEntries(Object.keys(pglite.parsers).map((oid) => [Number(oid), asText]));
}

interface Codecs {
  rawParsers: Parsers;
  serializers: SerializerOptions;
}

function pgliteSql(db: Pick<PGlite, "query" | "exec">, codecs: Codecs, owner?: Owner, prisma?: PrismaClient, joined = false): Sql {
  const { rawParsers, serializers } = codecs;
  const self: Sql = withPrisma(
    {
      async query<T>(query: SqlFragment) {
        const { text, values } = compile(query);
        return (await db.query<T>(text, values.map(forPglite), { serializers })).rows;
      },
      async text(text: string, values?: unknown[]) {
        if (values?.length) return db.query(text, values, { serializers });
        return (await db.exec(text)).at(-1) ?? { rows: [] };
      },
      async arrays(text: string) {
        return db.query<unknown[]>(text, [], { rowMode: "array", parsers: rawParsers });
      },
      async tx<T>(fn: (sql: Sql) => Promise<T>, options?: { rollback?: boolean }) {
        if (!owner) return options?.rollback ? refuseNestedRollback() : fn(self);
        return owner.inTurn(() =>
          owner.pglite.transaction(async (tx) => {
            const result = await fn(pgliteSql(tx, codecs));
            if (options?.rollback) await tx.rollback();
            return result;
          }),
        );
      },
      async transaction<T>(fn: (sql: Sql) => Promise<T>) {
        if (joined || !owner || !prisma) return fn(self);
        return joinedTransaction(
          prisma,
          (connection, tx) => pgliteSql(connection as Pick<PGlite, "query" | "exec">, codecs, undefined, tx, true),
          fn,
        );
      },
      async bounded<T>(ms: number, fn: (sql: Sql) => Promise<T>) {
        if (!owner) return refuseNestedRollback();
        return boundedTransaction(owner.pglite, ms, (tx) => fn(pgliteSql(tx, codecs)));
      },
    },
    prisma,
  );
  return self;
}

/** PGlite under `dataDir` ("memory" for none), in the server's own thread. */
export async function openEmbedded(dataDir: string, sharedBuffers?: string): Promise<Database> {
  if (dataDir !== "memory") await initializeDataDir(dataDir);
  const [{ types }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const pglite = await openCancellable(
    dataDir,
    { [types.TIMESTAMPTZ]: (v: string) => v, [types.TIMESTAMP]: (v: string) => v },
    sharedBuffers,
  );
  const prisma = new PrismaClient({ adapter: joinable(new PrismaPGlite(pglite)) });
  const codecs = { rawParsers: textParsers(pglite), serializers: jsonbAsBytes(pglite, types.JSONB) };
  const sql = pgliteSql(pglite, codecs, { pglite, inTurn: oneAtATime() }, prisma);
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
