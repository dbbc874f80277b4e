import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/router";

export const dynamic = "force-dynamic";

const handler = (request: Request) =>
  fetchRequestHandler({ endpoint: "/api/trpc", req: request, router: appRouter, createContext });

export { handler as GET, handler as POST };
