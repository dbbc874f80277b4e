import "server-only";
import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { createContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/router";

/**
 * Server pages call the same procedures the browser does, without HTTP: one identity resolution
 * (the tRPC context) and one membership check (the procedures) for every page.
 */
export async function serverTrpc() {
  const ctx = await createContext(new Headers(await headers()));
  return { userId: ctx.userId, api: createCaller(ctx) };
}

/** A procedure's NOT_FOUND (someone else's workspace, a missing run) or malformed id as the page's 404. */
export function orNotFound<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  });
}
