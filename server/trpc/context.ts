import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { clientIp } from "../core/client-ip";
import { authOptions } from "../auth/next-auth";
import { getSql } from "../db/client";
import type { TrpcContext } from "./init";

/** The context of one tRPC request: the database, the signed-in user from the session cookie, the caller's address. */
export async function createContext(): Promise<TrpcContext> {
  const session = await getServerSession(authOptions);
  return { sql: await getSql(), userId: session?.user?.id ?? null, ip: clientIp(new Headers(await headers())) };
}
