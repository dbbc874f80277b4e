import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { withRequestOrigin } from "@/server/http/public-url";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/router";

export const dynamic = "force-dynamic";

const handler = (request: Request) =>
  withRequestOrigin(request, () =>
    fetchRequestHandler({ endpoint: "/api/trpc", req: request, router: appRouter, createContext: () => createContext(request.headers) }),
  );

export { handler as GET, handler as POST };
