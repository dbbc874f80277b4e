"use client";

import { memo } from "react";
import { formatCost, formatLatency, formatTokens } from "../../../../_components/format";
import { runTypeColor } from "../../../../_components/ui";
import type { OutlineRun } from "@/server/runs/trace-outline-wire";
import { msLabel } from "./trace-axis";
import type { TraceTree, TreeNode } from "./tree-model";
import styles from "./trace.module.css";

export const ROW_HEIGHT = 30;

const TYPE_ABBR: Record<string, string> = {
  llm: "LLM",
  chain: "CHN",
  tool: "TOOL",
  retriever: "RTR",
  embedding: "EMB",
  prompt: "PRM",
  parser: "PRS",
};

/** Tokens, cost and time to first token of a run, where it has them (never cut: the model chip gives way first). */
function RunChips({ run }: { run: OutlineRun }) {
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

/** One run of the tree: its type, name, chips and latency, and its bar on the time axis (re-rendered only when its props change). */
export const TraceRow = memo(function TraceRow({
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
});
