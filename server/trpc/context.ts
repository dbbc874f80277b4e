import { getServerSession } from "next-auth";
import { authOptions } from "../auth/next-auth";
import { getSql } from "../db/client";
import type { TrpcContext } from "./init";

/** The context of one tRPC request: the database and the signed-in user from the session cookie. */
export async function createContext(): Promise<TrpcContext> {
  const session = await getServerSession(authOptions);
  return { sql: await getSql(), userId: session?.user?.id ?? null };
}
