"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatExactTime, formatLatency, formatTime, formatTokens, secondsBetween } from "./format";
import { ErrorState, LoadingState, RunTypeBadge, StatusBadge } from "./ui";

const json = (value: unknown) => (value === undefined ? "" : JSON.stringify(value, null, 2));

/**
 * The detail of one run, shown beside the runs table and the trace tree. Everything from the trace
 * is rendered as text (React escapes it); nothing is ever inserted as HTML.
 */
export function RunDetail({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.runs.get.queryOptions({ workspaceId, runId }));
  if (query.isPending) return <LoadingState label="Loading run…" />;
  if (query.isError) return <ErrorState error={query.error} title="Could not load this run" retry={() => query.refetch()} />;
  const run = query.data;
  const firstToken = secondsBetween(run.start_time, run.first_token_time);
  return (
    <div className="col" style={{ gap: 12, padding: 16 }} data-testid="run-detail">
      <div className="row" style={{ gap: 8 }}>
        <h2 className="truncate">{run.name}</h2>
        <RunTypeBadge runType={run.run_type} />
        <StatusBadge status={run.status} error={run.error} />
      </div>
      <div className="stat-row">
        <div className="stat"><div className="stat-label">Latency</div><div className="stat-value">{formatLatency(run.latency)}</div></div>
        <div className="stat"><div className="stat-label">First token</div><div className="stat-value">{formatLatency(firstToken)}</div></div>
        <div className="stat"><div className="stat-label">Tokens</div><div className="stat-value">{formatTokens(run.total_tokens)}</div></div>
        <div className="stat"><div className="stat-label">Cost</div><div className="stat-value">{formatCost(run.total_cost)}</div></div>
      </div>
      <div className="muted" title={formatExactTime(run.start_time)}>Started {formatTime(run.start_time)}</div>
      {run.error ? (<section className="col"><h3 className="err-text">Error</h3><pre className="code">{run.error}</pre></section>) : null}
      <section className="col"><h3>Inputs</h3><pre className="code">{json(run.inputs)}</pre></section>
      <section className="col"><h3>Outputs</h3><pre className="code">{json(run.outputs)}</pre></section>
      {run.extra?.metadata ? (<section className="col"><h3>Metadata</h3><pre className="code">{json(run.extra.metadata)}</pre></section>) : null}
    </div>
  );
}
