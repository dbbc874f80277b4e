import { sessionUserId } from "../auth/session";
import { clientIp } from "../core/client-ip";
import { database } from "../db/client";
import type { TrpcContext } from "./init";

/**
 * The context of one tRPC call, from its request headers: the database, the signed-in user (the
 * same next-auth session cookie the REST API reads, server/auth/session.ts) and the caller's address.
 */
export async function createContext(headers: Headers): Promise<TrpcContext> {
  const db = await database();
  return { sql: db.sql, reads: () => db.reads(), userId: await sessionUserId(headers), ip: clientIp(headers) };
}
