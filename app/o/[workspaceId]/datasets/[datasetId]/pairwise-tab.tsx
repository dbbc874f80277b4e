"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/trpc-client";
import { formatExactTime, relativeTime } from "../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { WinRates } from "./compare/pairwise";

/** A dataset's pairwise comparisons (reviewers' and the SDK's `evaluateComparative`), with win rates. */
export function PairwiseTab({ workspaceId, datasetId }: { workspaceId: string; datasetId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.pairwiseList.queryOptions({ workspaceId, datasetId }));
  if (list.isPending) return <LoadingState label="Loading comparisons…" />;
  if (list.error) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  if (list.data.length === 0)
    return (
      <EmptyState title="No pairwise comparisons yet">
        Compare two experiments and choose “Start pairwise review”, or run{" "}
        <code>
          evaluate([experimentA, experimentB], {"{"} evaluators {"}"})
        </code>{" "}
        with the SDK.
      </EmptyState>
    );
  return (
    <div className="col" style={{ gap: 8 }} data-testid="pairwise-list">
      {list.data.map((c) => (
        <Link
          key={c.id}
          href={`/o/${workspaceId}/datasets/${datasetId}/compare?selectedSessions=${c.experiments_info.map((e) => e.id).join(",")}&comparativeExperiment=${c.id}`}
          className="card"
          style={{ padding: "10px 12px", color: "inherit", textDecoration: "none" }}
        >
          <div className="row">
            <WinRates summary={c} />
            <span className="grow" />
            <span className="faint" title={formatExactTime(c.created_at)}>
              {relativeTime(c.created_at)}
            </span>
          </div>
        </Link>
      ))}
    </div>
  );
}
