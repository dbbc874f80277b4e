"use client";

import Link from "next/link";
import { RunDetail } from "../../_components/run-detail";
import { TraceOutline } from "./trace-outline";
import styles from "./runs.module.css";

/** The open run beside the list: its trace's outline (once the trace is known) and its detail. */
export function RunDrawer({
  workspaceId,
  projectId,
  runId,
  traceId,
  onSelect,
  onClose,
}: {
  workspaceId: string;
  projectId: string;
  runId: string;
  traceId: string | undefined;
  onSelect: (runId: string) => void;
  onClose: () => void;
}) {
  return (
    <aside className={styles.drawer} aria-label="Run detail">
      <div className={styles.drawerHeader}>
        <span className="muted">Run</span>
        <span className="mono faint truncate">{runId}</span>
        <span className="grow" />
        {traceId ? (
          <Link
            className="btn btn-sm btn-primary"
            href={`/o/${workspaceId}/projects/${projectId}/traces/${traceId}?run=${runId}`}
            data-testid="open-trace"
          >
            Open trace
          </Link>
        ) : null}
        <button type="button" className="btn btn-sm btn-ghost" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      {traceId ? <TraceOutline workspaceId={workspaceId} traceId={traceId} selectedId={runId} onSelect={onSelect} /> : null}
      <div className={styles.drawerBody}>
        <RunDetail workspaceId={workspaceId} runId={runId} />
      </div>
    </aside>
  );
}
