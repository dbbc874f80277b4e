"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatCount, formatLatency, formatPercent, formatTokens } from "../../_components/format";

/** The headline numbers of the runs the list shows (the same selection). */
export function RunStats({
  compact,
  ready,
  failed,
  selection,
}: {
  compact: boolean;
  ready: boolean;
  failed: boolean;
  selection: Parameters<ReturnType<typeof useTRPC>["runs"]["stats"]["queryOptions"]>[0];
}) {
  const trpc = useTRPC();
  // Asked once the page of runs is in: on one embedded database connection the aggregate over
  // millions of runs would otherwise queue in front of the first page.
  const stats = useQuery({ ...trpc.runs.stats.queryOptions(selection), placeholderData: (prev) => prev, retry: false, enabled: ready });
  const s = stats.data;
  const none = failed || stats.isError ? "–" : "…";
  const cells: [string, string][] = [
    ["Runs", s ? formatCount(s.run_count) : none],
    ["Error rate", s ? formatPercent(s.error_rate) : none],
    ["P50 latency", s ? formatLatency(s.latency_p50) : none],
    ["P99 latency", s ? formatLatency(s.latency_p99) : none],
    ["First token P50", s ? formatLatency(s.first_token_p50) : none],
    ["Tokens", s ? formatTokens(s.total_tokens) : none],
    ["Cost", s ? formatCost(s.total_cost) : none],
  ];
  // Beside the run drawer there is room for the headline numbers only.
  const shown = compact ? cells.filter(([label]) => ["Runs", "Error rate", "P50 latency", "Cost"].includes(label)) : cells;
  return (
    <div className="stat-row" data-testid="run-stats">
      {shown.map(([label, value]) => (
        <div key={label} className="stat">
          <div className="stat-label">{label}</div>
          <div className="stat-value">{value}</div>
        </div>
      ))}
    </div>
  );
}
