"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useTRPC } from "@/app/trpc-client";
import { decodeTraceOutline, type TraceOutline } from "@/server/runs/trace-outline-wire";

/**
 * A trace's outline (ids, parents, names, types, status, times, tokens, cost), read once and decoded
 * once: the wire carries it as one JSON text. A run's inputs and outputs are read when it is selected.
 */
export function useTraceOutline(workspaceId: string, traceId: string, firstRunId?: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The run shown first (the linked one, else the root, whose id is the trace's in LangSmith's
  // model) is read beside the outline rather than after it; a miss is only a wasted read.
  useEffect(() => {
    if (firstRunId) void queryClient.prefetchQuery(trpc.runs.get.queryOptions({ workspaceId, runId: firstRunId }));
  }, [queryClient, trpc, workspaceId, firstRunId]);
  // Not shared structurally: the answer is one string, and comparing 100,000 decoded runs would cost more.
  const query = useQuery({ ...trpc.trace.get.queryOptions({ workspaceId, traceId }), structuralSharing: false, staleTime: 60_000 });
  const outline = useMemo<TraceOutline | undefined>(() => (query.data ? decodeTraceOutline(query.data) : undefined), [query.data]);
  return { query, outline };
}
