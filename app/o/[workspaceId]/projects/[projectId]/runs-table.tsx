"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { RunSummary } from "@/server/trpc/types";
import { formatCost, formatExactTime, formatLatency, formatTime, formatTokens, secondsBetween } from "../../_components/format";
import { runTypeColor } from "../../_components/ui";
import styles from "./runs.module.css";

const ROW_HEIGHT = 36;

const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "type", label: "Type" },
  { key: "status", label: "Status" },
  { key: "start", label: "Start time" },
  { key: "latency", label: "Latency", num: true },
  { key: "first", label: "First token", num: true },
  { key: "tokens", label: "Tokens", num: true },
  { key: "cost", label: "Cost", num: true },
  { key: "tags", label: "Tags" },
  { key: "feedback", label: "Feedback" },
];

function Feedback({ stats }: { stats: RunSummary["feedback_stats"] }) {
  const entries = Object.entries(stats ?? {});
  if (entries.length === 0) return null;
  return (
    <>
      {entries.slice(0, 3).map(([key, s]) => {
        const scored = s.avg !== null && s.avg !== undefined;
        const value = scored ? (Math.round(s.avg! * 100) / 100).toString() : Object.keys(s.values ?? {})[0] ?? `${s.n}`;
        const tone = !scored ? "" : s.avg! >= 0.5 ? "badge-ok" : "badge-error";
        return <span key={key} className={`badge ${tone}`} title={`${key}: ${s.n} feedback`}>{key} <b>{value}</b></span>;
      })}
      {entries.length > 3 ? <span className="faint">+{entries.length - 3}</span> : null}
    </>
  );
}

function Row({ run, selected, onSelect }: { run: RunSummary; selected: boolean; onSelect: (run: RunSummary) => void }) {
  const failed = !!run.error || run.status === "error";
  return (
    <div
      role="row" aria-selected={selected} tabIndex={-1}
      className={`${styles.row} ${selected ? styles.rowSelected : ""}`}
      onClick={() => onSelect(run)}
      data-testid="run-row"
    >
      <div role="cell" className={`${styles.cell} ${styles.nameCell}`}>
        <span className={`dot ${failed ? "dot-error" : run.status === "success" ? "dot-ok" : "dot-pending"}`} />
        <span className="truncate" title={run.name}>{run.name}</span>
      </div>
      <div role="cell" className={styles.cell}><span style={{ color: runTypeColor(run.run_type), fontWeight: 500 }}>{run.run_type}</span></div>
      <div role="cell" className={styles.cell}>
        {failed ? <span className="err-text">Error</span> : run.status === "success" ? <span className="muted">Success</span> : <span style={{ color: "var(--warn)" }}>Running</span>}
      </div>
      <div role="cell" className={`${styles.cell} muted`} title={formatExactTime(run.start_time)}>{formatTime(run.start_time)}</div>
      <div role="cell" className={`${styles.cell} num`}>{formatLatency(run.latency)}</div>
      <div role="cell" className={`${styles.cell} num muted`}>{formatLatency(secondsBetween(run.start_time, run.first_token_time))}</div>
      <div role="cell" className={`${styles.cell} num`} title={`${run.prompt_tokens} prompt + ${run.completion_tokens} completion`}>{formatTokens(run.total_tokens)}</div>
      <div role="cell" className={`${styles.cell} num`}>{formatCost(run.total_cost)}</div>
      <div role="cell" className={`${styles.cell} ${styles.pills}`}>
        {run.tags.slice(0, 3).map((t) => <span key={t} className="badge" title={t}>{t}</span>)}
        {run.tags.length > 3 ? <span className="faint">+{run.tags.length - 3}</span> : null}
      </div>
      <div role="cell" className={`${styles.cell} ${styles.pills}`}><Feedback stats={run.feedback_stats} /></div>
    </div>
  );
}

/** The runs table: rows virtualized, the next page fetched as the end comes into view. */
export function RunsTable({ runs, hasMore, loadingMore, onLoadMore, selectedId, onSelect }: {
  runs: RunSummary[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  selectedId: string | null;
  onSelect: (run: RunSummary) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: runs.length + (hasMore ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : 0;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= runs.length - 10) onLoadMore();
  }, [hasMore, loadingMore, lastIndex, runs.length, onLoadMore]);

  const selectedIndex = selectedId ? runs.findIndex((r) => r.id === selectedId) : -1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  return (
    <div ref={scrollRef} className={styles.scroll} role="table" aria-label="Runs" aria-rowcount={runs.length} data-testid="runs-table">
      <div role="row" className={`${styles.row} ${styles.header}`}>
        {COLUMNS.map((c) => <div role="columnheader" key={c.key} className={`${styles.cell} ${c.num ? "num" : ""}`}>{c.label}</div>)}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {items.map((item) => (
          <div key={item.key} style={{ position: "absolute", top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
            {item.index < runs.length
              ? <Row run={runs[item.index]} selected={runs[item.index].id === selectedId} onSelect={onSelect} />
              : <div className={`${styles.row} ${styles.loadingRow}`}><span className="spinner" /> Loading more runs…</div>}
          </div>
        ))}
      </div>
    </div>
  );
}
