"use client";

import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useParams } from "next/navigation";
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { RunDetail } from "../../../../_components/run-detail";
import { ResizeHandle, usePanelWidth } from "../../../../_components/resize-handle";
import { EmptyState, ErrorState, isNotFound, LoadingState, MissingState } from "../../../../_components/ui";
import { useUrlState } from "../../../../_components/url-state";
import { Axis } from "./trace-axis";
import { TraceHeader } from "./trace-header";
import { ROW_HEIGHT, TraceRow } from "./trace-row";
import styles from "./trace.module.css";
import { buildTree, deepParents, visibleRows } from "./tree-model";
import { useTraceOutline } from "./use-trace-outline";
import { useTraceSearch } from "./use-trace-search";

/** Above this many runs, runs deeper than COLLAPSE_DEPTH start collapsed. */
const LARGE_TRACE = 2_000;
const COLLAPSE_DEPTH = 2;

function TraceView() {
  const { workspaceId, projectId, traceId } = useParams<{ workspaceId: string; projectId: string; traceId: string }>();
  const trpc = useTRPC();
  const [params] = useUrlState();
  // Selection lives in state (fast key repeat) and is mirrored into the URL for shareable links.
  const [chosen, setChosen] = useState<string | null>(() => params.get("run"));
  const [firstRunId] = useState(() => chosen ?? traceId);
  const { query, outline } = useTraceOutline(workspaceId, traceId, firstRunId);
  const runs = useMemo(() => outline?.runs ?? [], [outline]);
  const project = useQuery(trpc.projects.get.queryOptions({ workspaceId, projectId }));
  const [find, setFind] = useState("");
  const [panelWidth, setPanelWidth] = usePanelWidth("tl-trace-panel", 560);
  const matches = useTraceSearch(workspaceId, projectId, traceId, runs, find);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const tree = useMemo(() => buildTree(runs), [runs]);
  const [collapsed, setCollapsed] = useState<Set<string> | null>(null);
  useEffect(() => {
    if (outline && collapsed === null) setCollapsed(runs.length > LARGE_TRACE ? deepParents(tree, COLLAPSE_DEPTH) : new Set());
  }, [outline, runs, tree, collapsed]);
  const rows = useMemo(() => visibleRows(tree, collapsed ?? new Set()), [tree, collapsed]);
  const selectedId = chosen ?? tree.roots[0] ?? null;
  const selectedIndex = rows.findIndex((r) => r.run.id === selectedId);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  const select = useCallback((id: string) => {
    setChosen(id);
    const url = new URL(window.location.href);
    url.searchParams.set("run", id);
    window.history.replaceState(window.history.state, "", url);
  }, []);
  const toggle = useCallback((id: string) => {
    setCollapsed((prev) => {
      const next = new Set(prev ?? []);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  // A run deep in a collapsed branch (from a shared link) is revealed.
  useEffect(() => {
    if (!selectedId || !collapsed) return;
    const hidden: string[] = [];
    for (let p = tree.nodes.get(selectedId)?.parent; p; p = tree.nodes.get(p)?.parent) if (collapsed.has(p)) hidden.push(p);
    if (hidden.length) setCollapsed((prev) => new Set([...(prev ?? [])].filter((id) => !hidden.includes(id))));
  }, [selectedId, collapsed, tree]);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  // The tree takes the keyboard as soon as the trace is shown (autoFocus only works on form fields).
  const loaded = !!outline;
  useEffect(() => {
    if (loaded) scrollRef.current?.focus({ preventScroll: true });
  }, [loaded]);

  const positions = useMemo(() => new Map(runs.map((r, i) => [r.id, i])), [runs]);
  /** The next run of `ids` after the selected one in tree order, wrapping around. */
  const nextOf = useCallback(
    (ids: string[]) => {
      if (!ids.length) return;
      const at = selectedId ? (positions.get(selectedId) ?? -1) : -1;
      select(ids.find((id) => (positions.get(id) ?? -1) > at) ?? ids[0]);
    },
    [positions, selectedId, select],
  );
  const failedIds = useMemo(() => runs.filter((r) => r.error || r.status === "error").map((r) => r.id), [runs]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!rows.length) return;
    const node = selectedIndex >= 0 ? rows[selectedIndex] : null;
    const move = (i: number) => select(rows[Math.max(0, Math.min(rows.length - 1, i))].run.id);
    if (e.key === "ArrowDown" || e.key === "j") move(selectedIndex + 1);
    else if (e.key === "ArrowUp" || e.key === "k") move(selectedIndex - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(rows.length - 1);
    else if (e.key === "ArrowRight" && node) {
      if (node.children.length && collapsed?.has(node.run.id)) toggle(node.run.id);
      else if (node.children.length) select(node.children[0]);
    } else if (e.key === "ArrowLeft" && node) {
      if (node.children.length && !collapsed?.has(node.run.id)) toggle(node.run.id);
      else if (node.parent) select(node.parent);
    } else if (e.key === "e") nextOf(failedIds);
    else return;
    e.preventDefault();
  };

  if (query.isPending) return <LoadingState label="Loading trace…" />;
  if (query.isError && isNotFound(query.error))
    return (
      <div className="page">
        <MissingState
          title="This trace is missing"
          action={
            <Link className="btn btn-sm" href={`/o/${workspaceId}/projects/${projectId}`}>
              Back to the project
            </Link>
          }
        >
          No trace <code>{traceId}</code> is stored in this workspace: it may have been deleted, passed its retention period, or the link is
          wrong.
        </MissingState>
      </div>
    );
  if (query.isError)
    return (
      <div className="page">
        <ErrorState error={query.error} title="Could not open this trace" retry={() => void query.refetch()} />
      </div>
    );
  if (!outline || runs.length === 0)
    return (
      <div className="page">
        <EmptyState title="This trace has no runs" />
      </div>
    );

  const root = tree.nodes.get(tree.roots[0])!.run;
  const span = Math.max(1, tree.endMs - tree.startMs);
  const errors = failedIds.length;

  return (
    <div className={styles.layout} style={{ gridTemplateColumns: `minmax(0, 1fr) ${panelWidth}px` }}>
      <div className={styles.left}>
        <TraceHeader
          workspaceId={workspaceId}
          projectId={projectId}
          projectName={project.data?.name}
          traceId={traceId}
          outline={outline}
          root={root}
          span={span}
          errors={errors}
          find={find}
          onFind={setFind}
          matchCount={matches.length}
          onNextMatch={() => nextOf(matches)}
          onNextError={() => nextOf(failedIds)}
        />
        <div className={`${styles.grid} ${styles.head}`}>
          <div className={styles.hint}>
            <span style={{ color: "var(--muted)" }}>Run</span>
            <span className="grow" />
            <span>
              <span className="kbd">↑</span>
              <span className="kbd">↓</span> move
            </span>
            <span>
              <span className="kbd">←</span>
              <span className="kbd">→</span> fold
            </span>
            <span>
              <span className="kbd">e</span> error
            </span>
          </div>
          <Axis span={span} />
        </div>
        <div
          ref={scrollRef}
          className={styles.scroll}
          role="tree"
          aria-label="Runs of this trace"
          tabIndex={0}
          onKeyDown={onKeyDown}
          data-testid="trace-tree"
          autoFocus
        >
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const node = rows[item.index];
              return (
                <div
                  key={node.run.id}
                  style={{ position: "absolute", top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
                >
                  <TraceRow
                    node={node}
                    tree={tree}
                    selected={node.run.id === selectedId}
                    matched={matchSet.has(node.run.id)}
                    collapsed={!!collapsed?.has(node.run.id)}
                    onSelect={select}
                    onToggle={toggle}
                  />
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <aside className={styles.detailPane} aria-label="Selected run">
        <ResizeHandle width={panelWidth} onResize={setPanelWidth} />
        <div className={styles.detail}>
          {selectedId ? <RunDetail key={selectedId} workspaceId={workspaceId} runId={selectedId} /> : <EmptyState title="Select a run" />}
        </div>
      </aside>
    </div>
  );
}

export default function Page() {
  return (
    <Suspense fallback={<LoadingState />}>
      <TraceView />
    </Suspense>
  );
}
