import type { Redis } from "ioredis";
import { blobs } from "../blobs/store";
import { database } from "../db/client";
import { sql } from "../db/sql";
import { env } from "../env";

export interface Readiness {
  ready: boolean;
  checks: Record<string, "ok" | string>;
}

const TIMEOUT_MS = 2_000;
const state = globalThis as unknown as { tracelightHealthRedis?: Redis };

/** Whether this instance can serve: the database answers, Redis (when configured) answers, the blob store answers. */
export async function readiness(): Promise<Readiness> {
  const checks: Record<string, () => Promise<unknown>> = {
    database: async () => (await database()).sql.query(sql`SELECT 1`),
    blobs: () => blobs().check(),
  };
  if (env().REDIS_URL) checks.redis = async () => (await redis()).ping();
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await bounded(check)] as const));
  return { ready: results.every(([, result]) => result === "ok"), checks: Object.fromEntries(results) };
}

async function bounded(check: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS))),
    ]);
    return "ok";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

async function redis(): Promise<Redis> {
  if (!state.tracelightHealthRedis) {
    const { Redis } = await import("ioredis");
    state.tracelightHealthRedis = new Redis(env().REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: true });
    state.tracelightHealthRedis.on("error", () => undefined);
  }
  return state.tracelightHealthRedis;
}
