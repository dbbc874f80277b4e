// How `Sql.transaction` (server/db/client.ts) joins Prisma's interactive transaction with the set-based executor.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "./generated/client";
import type { Sql, Tx } from "./client";

/**
 * Which connection a `transaction` is on. Prisma opens an interactive transaction through its
 * driver adapter; `joinable` notes the adapter transaction's connection (the `pg` client, or the
 * PGlite transaction) in the slot of the `transaction` call that asked for it, so the executor can
 * run on the same one.
 */
const joining = new AsyncLocalStorage<{ connection?: unknown }>();

interface AdapterFactory {
  connect(): Promise<{ startTransaction(isolationLevel?: never): Promise<unknown> }>;
}

export function joinable<F extends AdapterFactory>(factory: F): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel?: never) => {
      const transaction = await start(isolationLevel);
      const slot = joining.getStore();
      // Both adapters keep the transaction's connection as `client`.
      if (slot && slot.connection === undefined) slot.connection = (transaction as { client: unknown }).client;
      return transaction;
    };
    return adapter;
  };
  return factory;
}

/** A transaction's Prisma Client: `$transaction` inside it joins it, as `Sql.tx` does. */
function joinedPrisma(tx: Tx): PrismaClient {
  const nested = (work: ((t: Tx) => Promise<unknown>) | Promise<unknown>[]) => (typeof work === "function" ? work(tx) : Promise.all(work));
  return new Proxy(tx, {
    get: (target, key, receiver) => (key === "$transaction" ? nested : Reflect.get(target, key, receiver)),
  }) as PrismaClient;
}

/** Generous bounds: a dataset upload of thousands of examples is one transaction. */
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 5 * 60_000 };

/** `prisma.$transaction` with an executor on its connection, made by `onConnection`. */
export async function joinedTransaction<T>(
  prisma: PrismaClient,
  onConnection: (connection: unknown, tx: PrismaClient) => Sql,
  fn: (sql: Sql) => Promise<T>,
) {
  const slot: { connection?: unknown } = {};
  return joining.run(slot, () =>
    prisma.$transaction(async (tx) => {
      if (slot.connection === undefined) throw new Error("The database adapter did not report the transaction's connection.");
      return fn(onConnection(slot.connection, joinedPrisma(tx)));
    }, TRANSACTION_LIMITS),
  );
}
