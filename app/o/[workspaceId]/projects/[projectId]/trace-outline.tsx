"use client";

import { useMemo } from "react";
import { formatLatency, formatTokens } from "../../_components/format";
import { runTypeColor } from "../../_components/ui";
import { buildTree, type TraceTree } from "./traces/[traceId]/tree-model";
import { useTraceOutline } from "./traces/[traceId]/use-trace-outline";
import styles from "./runs.module.css";

/** Rows beyond this are left to the full trace view. */
const SHOWN = 200;

function ordered(tree: TraceTree): string[] {
  const out: string[] = [];
  const walk = (id: string) => {
    if (out.length >= SHOWN) return;
    out.push(id);
    for (const child of tree.nodes.get(id)!.children) walk(child);
  };
  for (const root of tree.roots) walk(root);
  return out;
}

/**
 * The trace of the run open in the side panel, as a compact tree: a root run shows what it called,
 * and any run of it opens in the panel from here.
 */
export function TraceOutline({
  workspaceId,
  traceId,
  selectedId,
  onSelect,
}: {
  workspaceId: string;
  traceId: string;
  selectedId: string;
  onSelect: (runId: string) => void;
}) {
  const { outline } = useTraceOutline(workspaceId, traceId);
  const tree = useMemo(() => (outline ? buildTree(outline.runs) : null), [outline]);
  if (!tree || tree.nodes.size < 2) return null;
  const ids = ordered(tree);
  return (
    <nav className={styles.outline} aria-label="Trace" data-testid="trace-outline">
      {ids.map((id) => {
        const { run, depth } = tree.nodes.get(id)!;
        return (
          <button
            type="button"
            key={id}
            aria-current={id === selectedId ? "true" : undefined}
            className={styles.outlineRow}
            style={{ paddingLeft: 8 + depth * 14 }}
            onClick={() => onSelect(id)}
          >
            <span className={`dot ${run.error ? "dot-error" : run.status === "success" ? "dot-ok" : "dot-pending"}`} />
            <span style={{ color: runTypeColor(run.run_type) }} className={styles.outlineType}>
              {run.run_type}
            </span>
            <span className="truncate">{run.name}</span>
            <span className="grow" />
            {run.total_tokens ? <span className="faint">{formatTokens(run.total_tokens)} tok</span> : null}
            <span className="faint">{formatLatency(run.latency)}</span>
          </button>
        );
      })}
      {tree.nodes.size > ids.length ? (
        <div className="faint" style={{ padding: "4px 8px" }}>
          {tree.nodes.size - ids.length} more runs: open the trace
        </div>
      ) : null}
    </nav>
  );
}
