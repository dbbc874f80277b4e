"use client";

import Link from "next/link";
import { formatCost, formatTime, formatTokens } from "../../../../_components/format";
import type { OutlineRun, TraceOutline } from "@/server/runs/trace-outline-wire";
import { ShareButton } from "./share-button";
import { msLabel } from "./trace-axis";
import styles from "./trace.module.css";

/** The trace's crumbs, title, find box, next-error and share buttons, and its totals. */
export function TraceHeader({
  workspaceId,
  projectId,
  projectName,
  traceId,
  outline,
  root,
  span,
  errors,
  find,
  onFind,
  matchCount,
  onNextMatch,
  onNextError,
}: {
  workspaceId: string;
  projectId: string;
  projectName: string | undefined;
  traceId: string;
  outline: TraceOutline;
  root: OutlineRun;
  span: number;
  errors: number;
  find: string;
  onFind: (text: string) => void;
  matchCount: number;
  onNextMatch: () => void;
  onNextError: () => void;
}) {
  const all = outline.runs;
  let tokens = 0;
  let cost = 0;
  for (const r of all)
    if (r.run_type === "llm") {
      tokens += r.total_tokens;
      cost += r.total_cost ?? 0;
    }
  const started = new Date(Date.parse(outline.start_time) + root.start_ms).toISOString();
  return (
    <div className={styles.top}>
      <div className="crumbs">
        <Link href={`/o/${workspaceId}/projects`}>Projects</Link>
        <span className="sep">/</span>
        <Link href={`/o/${workspaceId}/projects/${projectId}`} data-testid="trace-project">
          {projectName ?? "Runs"}
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
          onChange={(e) => onFind(e.target.value)}
          data-testid="trace-search"
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              onNextMatch();
            }
          }}
        />
        {find.trim() ? (
          <span className="muted" data-testid="trace-search-count">
            {matchCount} found
          </span>
        ) : null}
        <button
          type="button"
          className="btn btn-sm"
          disabled={!errors}
          onClick={onNextError}
          data-testid="next-error"
          title="Next failing run (e)"
        >
          Next error
        </button>
        <ShareButton workspaceId={workspaceId} runId={root.id} />
      </div>
      <div className={styles.summary}>
        <span>
          Started <b>{formatTime(started)}</b>
        </span>
        <span>
          Duration <b>{msLabel(span)}</b>
        </span>
        <span>
          Runs <b>{all.length.toLocaleString("en-US")}</b>
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
        {outline.truncated ? <span className="err-text">Only the first {all.length.toLocaleString("en-US")} runs are shown.</span> : null}
      </div>
    </div>
  );
}
