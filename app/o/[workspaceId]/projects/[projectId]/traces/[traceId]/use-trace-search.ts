"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { OutlineRun } from "@/server/runs/trace-outline-wire";

const MAX_TEXT_HITS = 100;

/**
 * Runs of the trace matching a search: by name, model or error at once (from the tree already
 * loaded), and by the text of their inputs and outputs through the filter language's search().
 */
export function useTraceSearch(workspaceId: string, projectId: string, traceId: string, runs: OutlineRun[], text: string) {
  const trpc = useTRPC();
  const [needle, setNeedle] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setNeedle(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const filter = `and(eq(trace_id, ${JSON.stringify(traceId)}), search(${JSON.stringify(needle)}))`;
  const textHits = useQuery({
    ...trpc.runs.list.queryOptions({ workspaceId, projectId, filter, limit: MAX_TEXT_HITS }),
    enabled: needle.length >= 2,
    staleTime: 30_000,
  });
  return useMemo(() => {
    const lower = text.trim().toLowerCase();
    if (!lower) return [];
    const inText = new Set(needle.toLowerCase() === lower ? textHits.data?.runs.map((r) => r.id) : []);
    return runs
      .filter(
        (r) =>
          inText.has(r.id) ||
          r.name.toLowerCase().includes(lower) ||
          r.model?.toLowerCase().includes(lower) ||
          r.error?.toLowerCase().includes(lower),
      )
      .map((r) => r.id);
  }, [runs, text, needle, textHits.data]);
}
