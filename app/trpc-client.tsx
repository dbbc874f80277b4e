"use client";

import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchStreamLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import { WriteAwareQueryClient } from "./query-client";
import type { AppRouter } from "@/server/trpc/router";

/** `useTRPC()` gives typed query options: `useQuery(trpc.runs.list.queryOptions({...}))`. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient(): QueryClient {
  return new WriteAwareQueryClient({
    defaultOptions: {
      // What a server page read for the browser (app/_trpc/server.ts serverQueries) comes as superjson.
      hydrate: { deserializeData: superjson.deserialize },
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A 4xx will not fix itself by asking again.
        retry: (count, error) => {
          const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
          return (status === undefined || status >= 500) && count < 2;
        },
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function TrpcQueryProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          // A trace's outline is one JSON text of up to tens of megabytes. The streamed batch splits
          // its answer into lines by re-scanning all it has received at every chunk (quadratic: seconds
          // for a 100,000-run trace); a request of its own is read and parsed once.
          condition: (op) => op.path === "trace.get",
          true: httpLink({ url: "/api/trpc", transformer: superjson }),
          // Streamed batches: a slow procedure (statistics over millions of runs) does not hold back a fast one (the first page).
          false: httpBatchStreamLink({ url: "/api/trpc", transformer: superjson, maxURLLength: 4000 }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
