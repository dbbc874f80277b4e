import { env } from "../env";
import { openEmbedded } from "./embedded";
import type { Database, Sql } from "./handle";
import { openPostgres } from "./postgres";

export type { ArrayResult, Database, Sql, Tx } from "./handle";

/**
 * Opens PostgreSQL when a URL is given, else PGlite under `dataDir` ("memory" for none), its buffer
 * pool `sharedBuffers` (PostgreSQL units, "32MB"; default EMBEDDED_SHARED_BUFFERS), in a worker thread
 * unless `worker` is false (default: EMBEDDED_WORKER).
 */
export async function openDatabase(
  options: { url?: string; replicaUrls?: string[]; dataDir?: string; sharedBuffers?: string; worker?: boolean } = {},
): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.replicaUrls ?? []);
  const { mkdirSync } = await import("node:fs");
  const dataDir = options.dataDir ?? "./data";
  if (dataDir !== "memory") mkdirSync(dataDir, { recursive: true });
  return openEmbedded(dataDir, options.sharedBuffers, options.worker ?? env().EMBEDDED_WORKER);
}

const globalForDb = globalThis as unknown as { tracelightDb?: Promise<Database> };

/**
 * The process-wide database, migrated on first use. When opening or migrating fails (PostgreSQL
 * not up yet) the next call tries again, so the server recovers by itself once it is.
 */
export function database(): Promise<Database> {
  globalForDb.tracelightDb ??= (async () => {
    const { migrate } = await import("./migrate");
    const db = await openDatabase({
      url: env().DATABASE_URL,
      replicaUrls: env().DATABASE_REPLICA_URLS,
      dataDir: `${env().DATA_DIR}/pg`,
      sharedBuffers: env().EMBEDDED_SHARED_BUFFERS,
    });
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
