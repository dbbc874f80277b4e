import "server-only";
import { dehydrate, QueryClient } from "@tanstack/react-query";
import { TRPCError } from "@trpc/server";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import superjson from "superjson";
import { createContext } from "@/server/trpc/context";
import { appRouter, createCaller } from "@/server/trpc/router";

/** The request's tRPC context, resolved once however many server components ask (the layout and the page). */
const requestContext = cache(async () => createContext(new Headers(await headers())));

/**
 * Server pages call the same procedures the browser does, without HTTP: one identity resolution
 * (the tRPC context) and one membership check (the procedures) for every page.
 */
export async function serverTrpc() {
  const ctx = await requestContext();
  return { userId: ctx.userId, api: createCaller(ctx) };
}

/**
 * A page's first reads on the server, under the keys the browser's queries use (`trpc` is the same
 * options proxy as `useTRPC()`'s); `dehydrated()` hands them to the browser's cache through a
 * `HydrationBoundary`, so the page's queries find their answers there instead of asking again.
 * A read that fails is not handed over: the browser asks again and shows the error as it would.
 */
export async function serverQueries() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const trpc = createTRPCOptionsProxy({ ctx: await requestContext(), router: appRouter, queryClient });
  return { queryClient, trpc, dehydrated: () => dehydrate(queryClient, { serializeData: superjson.serialize }) };
}

/** A procedure's NOT_FOUND (someone else's workspace, a missing run) or malformed id as the page's 404. */
export function orNotFound<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  });
}
