"use client";

import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useParams } from "next/navigation";
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatLatency, formatTime, formatTokens } from "../../../../_components/format";
import { rangeTicks } from "../../../../_components/charts/ticks";
import { RunDetail } from "../../../../_components/run-detail";
import { ResizeHandle, usePanelWidth } from "../../../../_components/resize-handle";
import { EmptyState, ErrorState, isNotFound, LoadingState, MissingState, runTypeColor } from "../../../../_components/ui";
import { useUrlState } from "../../../../_components/url-state";
import { ShareButton } from "./share-button";
import styles from "./trace.module.css";
import type { TraceRun } from "@/server/runs/trace";
import { buildTree, deepParents, visibleRows, type TraceTree, type TreeNode } from "./tree-model";
import { useTraceSearch } from "./use-trace-search";

const ROW_HEIGHT = 30;
/** Above this many runs, runs deeper than COLLAPSE_DEPTH start collapsed. */
const LARGE_TRACE = 2_000;
const COLLAPSE_DEPTH = 2;

const TYPE_ABBR: Record<string, string> = {
  llm: "LLM",
  chain: "CHN",
  tool: "TOOL",
  retriever: "RTR",
  embedding: "EMB",
  prompt: "PRM",
  parser: "PRS",
};

function msLabel(ms: number): string {
  return formatLatency(ms / 1000);
}

/** Roughly how wide a label of `text` is at the axis's font (tabular digits), padding included. */
const labelWidth = (text: string) => 7.5 * text.length + 10;

/** Round ticks over the trace's duration whose labels fit between each other and the end's, and its end. */
function Axis({ span }: { span: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const end = msLabel(span);
  // Round steps, each kept when its label ends 8 px before the next label starts (the end's is
  // right-aligned), so labels never meet however narrow the column is.
  const ticks: number[] = [];
  let free = 0;
  for (const t of rangeTicks(0, span, 5)) {
    const left = (t / span) * width;
    const right = left + labelWidth(t === 0 ? "0" : msLabel(t));
    if (width > 0 && left >= free && right + 8 <= width - labelWidth(end)) {
      ticks.push(t);
      free = right + 8;
    }
  }
  return (
    <div ref={ref} className={styles.axis} style={{ marginRight: 16 }} data-testid="trace-axis">
      {ticks.map((t) => (
        <div key={t} className={styles.tick} style={{ left: `${(t / span) * 100}%` }}>
          {t === 0 ? "0" : msLabel(t)}
        </div>
      ))}
      <div className={`${styles.tick} ${styles.tickEnd}`}>{end}</div>
    </div>
  );
}

/** Tokens, cost and time to first token of a run, where it has them (never cut: the model chip gives way first). */
function RunChips({ run }: { run: TraceRun }) {
  return (
    <span className={styles.chips}>
      {run.total_tokens ? (
        <span className={styles.stat} title={`${run.total_tokens} tokens`}>
          {formatTokens(run.total_tokens)} tok
        </span>
      ) : null}
      {run.total_cost ? (
        <span className={styles.stat} title="Cost">
          {formatCost(run.total_cost)}
        </span>
      ) : null}
      {run.first_token_ms !== null ? (
        <span className={styles.stat} title="Time to first token">
          ⚡{msLabel(run.first_token_ms)}
        </span>
      ) : null}
    </span>
  );
}

function TraceRow({
  node,
  tree,
  selected,
  matched,
  collapsed,
  onSelect,
  onToggle,
}: {
  node: TreeNode;
  tree: TraceTree;
  selected: boolean;
  matched: boolean;
  collapsed: boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
}) {
  const { run } = node;
  const failed = !!run.error || run.status === "error";
  const span = Math.max(1, tree.endMs - tree.startMs);
  const end = node.endMs ?? span;
  const left = (node.startMs / span) * 100;
  const width = Math.max(0, ((end - node.startMs) / span) * 100);
  const color = runTypeColor(run.run_type);
  return (
    <div
      role="treeitem"
      aria-level={node.depth + 1}
      aria-selected={selected}
      aria-expanded={node.children.length ? !collapsed : undefined}
      className={`${styles.grid} ${styles.row} ${selected ? styles.selected : ""} ${failed ? styles.errorRow : ""}`}
      onClick={() => onSelect(run.id)}
      data-testid="trace-row"
      data-run-id={run.id}
      data-match={matched || undefined}
    >
      <div className={styles.treeCell} style={{ paddingLeft: 8 }}>
        {Array.from({ length: node.depth }, (_, i) => (
          <span key={i} className={styles.guide} />
        ))}
        {node.children.length ? (
          <button
            type="button"
            className={styles.twisty}
            aria-label={collapsed ? "Expand" : "Collapse"}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(run.id);
            }}
          >
            <svg
              width="10"
              height="10"
              viewBox="0 0 10 10"
              style={{ transform: collapsed ? "rotate(-90deg)" : undefined, transition: "transform 0.1s" }}
            >
              <path d="M2 3.5l3 3 3-3" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
            </svg>
          </button>
        ) : (
          <span style={{ width: 16, flex: "none" }} />
        )}
        <span
          className={styles.typeTag}
          style={{ color, background: `color-mix(in srgb, ${color} 12%, transparent)` }}
          title={run.run_type}
        >
          {TYPE_ABBR[run.run_type] ?? run.run_type.slice(0, 4).toUpperCase()}
        </span>
        <span className={styles.name} title={run.name}>
          {run.name}
        </span>
        {run.model ? (
          <span className={styles.chip} title={`Model: ${run.model}`}>
            {run.model}
          </span>
        ) : null}
        {failed ? (
          <span className="badge badge-error" style={{ flex: "none" }}>
            error
          </span>
        ) : null}
        <RunChips run={run} />
        <span className={styles.meta} title="Latency">
          {formatLatency(run.latency)}
        </span>
      </div>
      <div className={styles.lane}>
        <div
          className={`${styles.bar} ${failed ? styles.barError : ""} ${node.endMs === null ? styles.barOpen : ""}`}
          style={{ left: `${left}%`, width: `${width}%`, background: color }}
          title={`${run.name}: starts at +${msLabel(node.startMs)}, ${node.endMs === null ? "still running" : `takes ${msLabel(end - node.startMs)}`}`}
        />
        {width < 70 ? (
          <span
            className={styles.barLabel}
            style={left + width > 80 ? { right: `calc(${100 - left}% + 6px)` } : { left: `calc(${left + width}% + 6px)` }}
          >
            {node.endMs === null ? "running" : msLabel(end - node.startMs)}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function TraceView() {
  const { workspaceId, projectId, traceId } = useParams<{ workspaceId: string; projectId: string; traceId: string }>();
  const trpc = useTRPC();
  const [params] = useUrlState();
  // Selection lives in state (fast key repeat) and is mirrored into the URL for shareable links.
  const [chosen, setChosen] = useState<string | null>(() => params.get("run"));
  const query = useQuery(trpc.trace.get.queryOptions({ workspaceId, traceId }));
  const project = useQuery(trpc.projects.get.queryOptions({ workspaceId, projectId }));
  const [find, setFind] = useState("");
  const [panelWidth, setPanelWidth] = usePanelWidth("tl-trace-panel", 560);
  const matches = useTraceSearch(workspaceId, projectId, traceId, query.data?.runs ?? [], find);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const tree = useMemo(() => buildTree(query.data?.runs ?? []), [query.data]);
  const [collapsed, setCollapsed] = useState<Set<string> | null>(null);
  useEffect(() => {
    if (query.data && collapsed === null)
      setCollapsed(query.data.runs.length > LARGE_TRACE ? deepParents(tree, COLLAPSE_DEPTH) : new Set());
  }, [query.data, tree, collapsed]);
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
  const loaded = !!query.data;
  useEffect(() => {
    if (loaded) scrollRef.current?.focus({ preventScroll: true });
  }, [loaded]);

  /** The next run of `ids` after the selected one in tree order, wrapping around. */
  const nextOf = useCallback(
    (ids: string[]) => {
      if (!ids.length) return;
      const order = query.data?.runs ?? [];
      const at = order.findIndex((r) => r.id === selectedId);
      const positions = new Map(order.map((r, i) => [r.id, i]));
      select(ids.find((id) => (positions.get(id) ?? -1) > at) ?? ids[0]);
    },
    [query.data, selectedId, select],
  );
  const failedIds = useMemo(() => (query.data?.runs ?? []).filter((r) => r.error || r.status === "error").map((r) => r.id), [query.data]);

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
  if (query.data.runs.length === 0)
    return (
      <div className="page">
        <EmptyState title="This trace has no runs" />
      </div>
    );

  const root = tree.nodes.get(tree.roots[0])!.run;
  const span = Math.max(1, tree.endMs - tree.startMs);
  const all = query.data.runs;
  const errors = failedIds.length;
  const tokens = all.reduce((n, r) => n + (r.run_type === "llm" ? r.total_tokens : 0), 0);
  const cost = all.reduce((n, r) => n + (r.run_type === "llm" ? (r.total_cost ?? 0) : 0), 0);

  return (
    <div className={styles.layout} style={{ gridTemplateColumns: `minmax(0, 1fr) ${panelWidth}px` }}>
      <div className={styles.left}>
        <div className={styles.top}>
          <div className="crumbs">
            <Link href={`/o/${workspaceId}/projects`}>Projects</Link>
            <span className="sep">/</span>
            <Link href={`/o/${workspaceId}/projects/${projectId}`} data-testid="trace-project">
              {project.data?.name ?? "Runs"}
            </Link>
            <span className="sep">/</span>
            <span className="mono">{traceId.slice(0, 8)}</span>
          </div>
          <div className="row">
            <h1 className="truncate grow" data-testid="trace-title">
              {root.name}
            </h1>
            <input
              className="input"
              type="search"
              placeholder="Find runs by name or text"
              aria-label="Find in trace"
              style={{ width: 220 }}
              value={find}
              onChange={(e) => setFind(e.target.value)}
              data-testid="trace-search"
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  nextOf(matches);
                }
              }}
            />
            {find.trim() ? (
              <span className="muted" data-testid="trace-search-count">
                {matches.length} found
              </span>
            ) : null}
            <button
              type="button"
              className="btn btn-sm"
              disabled={!errors}
              onClick={() => nextOf(failedIds)}
              data-testid="next-error"
              title="Next failing run (e)"
            >
              Next error
            </button>
            <ShareButton workspaceId={workspaceId} runId={root.id} />
          </div>
          <div className={styles.summary}>
            <span>
              Started <b>{formatTime(root.start_time)}</b>
            </span>
            <span>
              Duration <b>{msLabel(span)}</b>
            </span>
            <span>
              Runs <b>{all.length}</b>
            </span>
            <span>
              Errors <b className={errors ? "err-text" : undefined}>{errors}</b>
            </span>
            <span>
              Tokens <b>{formatTokens(tokens)}</b>
            </span>
            <span>
              Cost <b>{formatCost(cost)}</b>
            </span>
            {query.data.truncated ? <span className="err-text">Only the first {all.length} runs are shown.</span> : null}
          </div>
        </div>
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
