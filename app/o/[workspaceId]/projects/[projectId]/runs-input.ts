import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/trpc/router";
import { rangeBounds } from "./view-state";

const SORTS = ["start_time", "latency", "first_token", "total_tokens", "total_cost"] as const;
export type RunSort = { by: (typeof SORTS)[number]; dir: "asc" | "desc" };

/** `sort=latency:asc` in the URL; none means newest first. */
export function parseSort(value: string | null): RunSort | undefined {
  const [by, dir] = (value ?? "").split(":");
  const sort = SORTS.find((s) => s === by);
  return sort && (dir === "asc" || dir === "desc") ? { by: sort, dir } : undefined;
}

/**
 * The runs the list shows (and its statistics count), from the list's address state. The server's
 * first read of the page and the browser use this one function, so the browser finds that page in
 * its cache under the same key instead of asking again.
 */
export function runsSelection(workspaceId: string, projectId: string, params: URLSearchParams, now = Date.now()) {
  // A relative range starts at a whole minute, so the same bounds (and cached pages) last a minute.
  const { startTime, endTime } = rangeBounds(params, now);
  return {
    workspaceId,
    projectId,
    filter: params.get("filter") || undefined,
    runType: params.get("type") || undefined,
    rootOnly: params.get("root") !== "0",
    search: params.get("q") || undefined,
    startTime,
    endTime,
  };
}

/** The runs list's pages of that selection (100 runs each), as the server's first read and the browser ask for them. */
export function runsListOptions(trpc: TRPCOptionsProxy<AppRouter>, selection: ReturnType<typeof runsSelection>, sort: RunSort | undefined) {
  return trpc.runs.list.infiniteQueryOptions({ ...selection, sort, limit: 100 }, { getNextPageParam: (last) => last.next ?? undefined });
}
