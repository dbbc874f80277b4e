"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use, useCallback, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCount } from "../../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../../_components/ui";
import { useUrlState } from "../../../_components/url-state";
import { CompareGrid, type Focus } from "./compare-grid";
import { ExampleDetail } from "./example-detail";
import { PreferencePicker, WinRates } from "./pairwise";
import { Summaries } from "./summaries";
import styles from "./compare.module.css";

const PAGE = 25;
const ONLY = ["all", "regressions", "improvements"] as const;
type Only = (typeof ONLY)[number];

/**
 * One experiment example by example, or 2–5 side by side against a baseline. The SDK's
 * `evaluate()` prints this address: `…/datasets/{id}/compare?selectedSessions={id}[,{id}…]`.
 */
export default function ComparePage({ params }: { params: Promise<{ workspaceId: string; datasetId: string }> }) {
  const { workspaceId, datasetId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const [query, setQuery] = useUrlState();
  const [focus, setFocus] = useState<Focus>({ row: 0, column: 0 });
  const experimentIds = (query.get("selectedSessions") ?? "").split(",").filter(Boolean);
  const only = (ONLY as readonly string[]).includes(query.get("only") ?? "") ? (query.get("only") as Only) : "all";
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const input = {
    workspaceId,
    datasetId,
    experimentIds,
    baselineId: query.get("baseline") ?? undefined,
    scoreKey: query.get("key") ?? undefined,
    only,
    split: query.get("split") ?? undefined,
    sort: query.get("sort") === "delta" ? ("delta" as const) : ("example" as const),
    offset,
    limit: PAGE,
  };
  const comparison = useQuery({
    ...trpc.experiments.compare.queryOptions(input),
    enabled: experimentIds.length > 0,
    placeholderData: keepPreviousData,
  });
  const comparativeId = query.get("comparativeExperiment");
  const pairwise = useQuery({
    ...trpc.experiments.pairwise.queryOptions({ workspaceId, comparativeId: comparativeId ?? "" }),
    enabled: Boolean(comparativeId),
  });
  const startPairwise = useMutation(
    trpc.experiments.startPairwise.mutationOptions({ onSuccess: (created) => setQuery({ comparativeExperiment: created.id }) }),
  );
  const set = (patch: Record<string, string | null>) => {
    setQuery({ offset: null, ...patch });
    setFocus({ row: 0, column: focus.column });
  };
  const traceHref = useCallback(
    (projectId: string, traceId: string) => `/o/${workspaceId}/projects/${projectId}/traces/${traceId}`,
    [workspaceId],
  );
  const open = useCallback((projectId: string, traceId: string) => router.push(traceHref(projectId, traceId)), [router, traceHref]);

  const data = comparison.data;
  const several = experimentIds.length > 1;
  const title = !data ? "…" : several ? `Comparing ${data.experiments.length} experiments` : data.experiments[0]?.name;
  const header = (
    <div className="page-header">
      <div className="col" style={{ gap: 2, minWidth: 0 }}>
        <div className="crumbs">
          <Link href={`/o/${workspaceId}/datasets`}>Datasets</Link>
          <span className="sep">/</span>
          <Link href={`/o/${workspaceId}/datasets/${datasetId}?tab=experiments`}>{data?.dataset.name ?? "…"}</Link>
          <span className="sep">/</span>
        </div>
        <h1 data-testid="compare-title">{title}</h1>
      </div>
    </div>
  );
  if (experimentIds.length === 0)
    return (
      <div className="page">
        {header}
        <EmptyState title="No experiment chosen">
          Pick experiments on the dataset&apos;s <Link href={`/o/${workspaceId}/datasets/${datasetId}?tab=experiments`}>Experiments</Link>{" "}
          tab.
        </EmptyState>
      </div>
    );
  if (comparison.error)
    return (
      <div className="page">
        {header}
        <ErrorState error={comparison.error} title="Could not compare these experiments" />
      </div>
    );
  if (!data)
    return (
      <div className="page">
        {header}
        <LoadingState label="Loading experiments…" />
      </div>
    );
  const selectedRow = data.rows[Math.min(focus.row, data.rows.length - 1)];
  return (
    <div className="page">
      {header}
      <Summaries comparison={data} onBaseline={(id) => set({ baseline: id })} onKey={(key) => set({ key })} />
      {pairwise.data ? (
        <div className="card" style={{ padding: "8px 12px" }}>
          <WinRates summary={pairwise.data} />
        </div>
      ) : (
        experimentIds.length === 2 &&
        !comparativeId && (
          <div>
            <button
              type="button"
              className="btn btn-sm"
              disabled={startPairwise.isPending}
              onClick={() => startPairwise.mutate({ workspaceId, experimentIds })}
            >
              Start pairwise review
            </button>
            {startPairwise.error && <span className="err-text"> {startPairwise.error.message}</span>}
          </div>
        )
      )}
      <div className="row" style={{ flexWrap: "wrap", gap: 10 }}>
        {data.keys.length > 0 && (
          <label className="row" style={{ gap: 6 }}>
            <span className="muted">Score</span>
            <select className="select" value={data.score_key ?? ""} onChange={(e) => set({ key: e.target.value })}>
              {data.keys.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          </label>
        )}
        {several && (
          <div className="segmented" role="group" aria-label="Rows">
            {ONLY.map((o) => (
              <button key={o} type="button" aria-pressed={only === o} onClick={() => set({ only: o === "all" ? null : o })}>
                {o === "all" ? "All examples" : o === "regressions" ? "Regressions only" : "Improvements only"}
              </button>
            ))}
          </div>
        )}
        {several && (
          <label className="row" style={{ gap: 6 }}>
            <input type="checkbox" checked={input.sort === "delta"} onChange={(e) => set({ sort: e.target.checked ? "delta" : null })} />
            <span className="muted">Largest regression first</span>
          </label>
        )}
        {data.splits.length > 0 && (
          <label className="row" style={{ gap: 6 }}>
            <span className="muted">Split</span>
            <select className="select" value={input.split ?? ""} onChange={(e) => set({ split: e.target.value || null })}>
              <option value="">All</option>
              {data.splits.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
        )}
        <span className="grow" />
        <span className="muted" data-testid="compare-count">
          {data.total === 0 ? "No examples" : `${offset + 1}–${offset + data.rows.length} of ${formatCount(data.total)} examples`}
        </span>
        <button
          type="button"
          className="btn btn-sm"
          disabled={offset === 0}
          onClick={() => setQuery({ offset: String(Math.max(0, offset - PAGE)) || null })}
        >
          Previous
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={offset + PAGE >= data.total}
          onClick={() => setQuery({ offset: String(offset + PAGE) })}
        >
          Next
        </button>
      </div>
      {data.rows.length === 0 ? (
        <EmptyState title={only === "regressions" ? "No regressions" : only === "improvements" ? "No improvements" : "No examples"}>
          {only === "all"
            ? "These experiments have no runs on this dataset's examples yet."
            : `No example scores ${only === "regressions" ? "lower" : "higher"} than the baseline on ${data.score_key}.`}
        </EmptyState>
      ) : (
        <>
          <div className={`card ${styles.tableWrap}`}>
            <CompareGrid comparison={data} focus={focus} onFocus={setFocus} onOpen={open} />
          </div>
          <p className="faint" style={{ fontSize: 12, margin: 0 }}>
            <span className="kbd">↑</span> <span className="kbd">↓</span> examples · <span className="kbd">←</span>{" "}
            <span className="kbd">→</span> experiments · <span className="kbd">Enter</span> opens the trace
          </p>
          {selectedRow && pairwise.data && (
            <PreferencePicker
              workspaceId={workspaceId}
              comparativeId={pairwise.data.id}
              exampleId={selectedRow.id}
              experiments={pairwise.data.experiments_info}
              onPicked={() => setFocus((f) => ({ ...f, row: Math.min(f.row + 1, data.rows.length - 1) }))}
            />
          )}
          {selectedRow && <ExampleDetail key={selectedRow.id} comparison={data} row={selectedRow} traceHref={traceHref} />}
        </>
      )}
    </div>
  );
}
