"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RunSummary } from "@/app/trpc-types";
import { EmptyState, ErrorState, LoadingState } from "../../_components/ui";
import { BulkActions } from "./bulk-actions";
import { FilterBar } from "./filter-bar";
import { IngestErrors } from "./ingest-errors";
import { besidePanel, ColumnChooser, nextSort } from "./run-columns";
import { useListColumns } from "./list-columns";
import { SearchBox, TimeRange } from "./list-controls";
import { SavedViews, useDefaultView } from "./saved-views";
import { parseSort, runsListOptions, runsSelection } from "./runs-input";
import controls from "./list-controls.module.css";
import { RunsTable } from "./runs-table";
import { ThreadsView } from "./threads-view";
import { RunDrawer } from "./run-drawer";
import { useRunKeys } from "./run-keys";
import { RunStats } from "./run-stats";
import styles from "./runs.module.css";
import { useUrlState } from "../../_components/url-state";

const RUN_TYPES = ["llm", "chain", "tool", "retriever", "prompt", "parser", "embedding"];

/** The runs page (the server read its first page, see page.tsx): the list, its controls and the run drawer. */
export function RunsPage() {
  const { workspaceId, projectId } = useParams<{ workspaceId: string; projectId: string }>();
  const trpc = useTRPC();
  const [address, setParams] = useUrlState();
  const { params, ready: viewReady } = useDefaultView(workspaceId, projectId, address, setParams);
  const filter = params.get("filter") ?? "";
  const runType = params.get("type") ?? "";
  const rootOnly = params.get("root") !== "0";
  const selectedId = params.get("run");
  const sort = parseSort(params.get("sort"));
  const threadsView = params.get("view") === "threads";
  const search = params.get("q") ?? "";
  const selection = runsSelection(workspaceId, projectId, params);
  const { startTime, endTime } = selection;
  const ranged = !!(startTime || endTime);

  const project = useQuery(trpc.projects.get.queryOptions({ workspaceId, projectId }));
  const [columns, toggleColumn] = useListColumns(params, setParams);
  const [tableWidth, setTableWidth] = useState(0);
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = contentRef.current;
    if (!el) return;
    const measure = () => setTableWidth(el.clientWidth - 40);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [project.isError]);
  const [checkedIds, setCheckedIds] = useState<ReadonlySet<string>>(new Set());
  const checked = useMemo(
    () => ({
      ids: checkedIds,
      set: (ids: string[], on: boolean) =>
        setCheckedIds((prev) => {
          const next = new Set(prev);
          for (const id of ids)
            if (on) next.add(id);
            else next.delete(id);
          return next;
        }),
    }),
    [checkedIds],
  );
  const runs = useInfiniteQuery({
    ...runsListOptions(trpc, selection, sort),
    placeholderData: (prev) => prev,
    enabled: !threadsView && viewReady,
  });
  const pages = runs.data?.pages;
  const rows = useMemo(() => pages?.flatMap((p) => p.runs) ?? [], [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = runs;
  const loadMore = useCallback(() => {
    void fetchNextPage();
  }, [fetchNextPage]);
  const select = useCallback((run: RunSummary) => setParams({ run: run.id, trace: run.trace_id }), [setParams]);
  const selectedTrace = params.get("trace") ?? rows.find((r) => r.id === selectedId)?.trace_id;

  const close = useCallback(() => setParams({ run: null, trace: null }), [setParams]);
  useRunKeys(selectedId, rows, select, close);

  if (project.isError)
    return (
      <div className="page">
        <ErrorState error={project.error} title="Could not open this project" />
      </div>
    );
  const name = project.data?.name ?? "…";
  const filtered = !!filter || !!runType || !!search || ranged;

  return (
    <div className={`${styles.layout} ${selectedId ? styles.layoutWithDetail : ""}`}>
      <div className={styles.content} ref={contentRef}>
        <div className="page-header">
          <div className="col" style={{ gap: 2, minWidth: 0, flex: "1 1 220px" }}>
            <div className="crumbs">
              <Link href={`/o/${workspaceId}/projects`}>Projects</Link>
              <span className="sep">/</span>
            </div>
            <h1 className="truncate" data-testid="project-name">
              {name}
            </h1>
          </div>
          <div className={styles.toolbar}>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={!threadsView} onClick={() => setParams({ view: null, thread: null })}>
                Runs
              </button>
              <button
                type="button"
                aria-pressed={threadsView}
                onClick={() => setParams({ view: "threads", run: null, trace: null })}
                data-testid="threads-tab"
              >
                Threads
              </button>
            </div>
            <Link className="btn" href={`/o/${workspaceId}/projects/${projectId}/users`} data-testid="project-users">
              Users
            </Link>
            <Link className="btn" href={`/o/${workspaceId}/projects/${projectId}/dashboard`} data-testid="project-dashboard">
              Dashboard
            </Link>
            <Link className="btn" href={`/o/${workspaceId}/projects/${projectId}/alerts`} data-testid="project-alerts">
              Alerts
            </Link>
            <Link className="btn" href={`/o/${workspaceId}/sql?projects=${projectId}`} data-testid="project-sql">
              SQL
            </Link>
            {threadsView ? null : (
              <>
                <div className="segmented" role="group" aria-label="Which runs">
                  <button type="button" aria-pressed={rootOnly} onClick={() => setParams({ root: null })}>
                    Root runs
                  </button>
                  <button type="button" aria-pressed={!rootOnly} onClick={() => setParams({ root: "0" })}>
                    All runs
                  </button>
                </div>
                <select
                  className="select"
                  value={runType}
                  onChange={(e) => setParams({ type: e.target.value || null })}
                  aria-label="Run type"
                >
                  <option value="">All types</option>
                  {RUN_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
                <ColumnChooser shown={columns} onToggle={toggleColumn} />
                <button type="button" className="btn" onClick={() => void runs.refetch()} disabled={runs.isFetching}>
                  {runs.isFetching && !isFetchingNextPage ? <span className="spinner" style={{ width: 12, height: 12 }} /> : "↻"} Refresh
                </button>
              </>
            )}
          </div>
        </div>
        <div className={controls.controls} data-testid="list-controls">
          <SearchBox
            value={search}
            onChange={(q) => setParams({ q: q || null })}
            placeholder={threadsView ? "Search the threads' messages…" : "Search names, inputs, outputs and errors…"}
          />
          <span className="grow" />
          <TimeRange params={params} setParams={setParams} />
          <SavedViews
            workspaceId={workspaceId}
            projectId={projectId}
            params={params}
            setParams={setParams}
            columns={columns.map((c) => c.key)}
          />
        </div>
        {threadsView ? (
          <ThreadsView
            filter={filter}
            search={search}
            startTime={startTime}
            endTime={endTime}
            workspaceId={workspaceId}
            projectId={projectId}
            threadId={params.get("thread")}
            onOpen={(thread) => setParams({ thread })}
          />
        ) : (
          <>
            <RunStats
              compact={!!selectedId}
              ready={runs.isSuccess && !runs.isPlaceholderData}
              failed={runs.isError}
              selection={selection}
            />
            <IngestErrors workspaceId={workspaceId} projectId={projectId} />
            <BulkActions workspaceId={workspaceId} runIds={[...checkedIds]} onClear={() => setCheckedIds(new Set())} />
            <FilterBar filter={filter} onChange={(f) => setParams({ filter: f || null })} />
            <div className={`card ${styles.tableCard}`}>
              {runs.isPending ? (
                <LoadingState label="Loading runs…" />
              ) : runs.isError ? (
                <ErrorState error={runs.error} title="Could not load runs" retry={() => void runs.refetch()} />
              ) : rows.length === 0 ? (
                filtered ? (
                  <EmptyState
                    title="No runs match"
                    action={
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => setParams({ filter: null, type: null, q: null, range: null, from: null, to: null, saved: null })}
                      >
                        Clear filters
                      </button>
                    }
                  >
                    {ranged ? "Try a wider time range or filter." : "Try a wider filter."}
                  </EmptyState>
                ) : (
                  <EmptyState title="No runs yet">Runs sent to this project show up here as they arrive.</EmptyState>
                )
              ) : (
                <RunsTable
                  runs={rows}
                  columns={selectedId ? besidePanel(columns, tableWidth) : columns}
                  sort={sort}
                  onSort={(by) => setParams({ sort: nextSort(sort, by) })}
                  hasMore={!!hasNextPage}
                  loadingMore={isFetchingNextPage}
                  onLoadMore={loadMore}
                  selectedId={selectedId}
                  onSelect={select}
                  checked={checked}
                />
              )}
            </div>
          </>
        )}
      </div>
      {selectedId && !threadsView ? (
        <RunDrawer
          workspaceId={workspaceId}
          projectId={projectId}
          runId={selectedId}
          traceId={selectedTrace}
          onSelect={(run) => setParams({ run })}
          onClose={close}
        />
      ) : null}
    </div>
  );
}
