"use client";

import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { RunSummary } from "@/app/trpc-types";
import { formatCost, formatExactTime, formatLatency, formatTime, formatTokens, secondsBetween } from "../../_components/format";
import { runTypeColor } from "../../_components/ui";
import type { RunSort } from "./runs-input";
import styles from "./runs.module.css";

export interface RunColumn {
  key: string;
  label: string;
  /** Narrowest width in px; with `grow`, the column takes that share of the room left. */
  min: number;
  grow?: number;
  num?: boolean;
  /** Shown until the user chooses otherwise. */
  shown: boolean;
  /** The runs list's sort key when the column can be sorted by. */
  sort?: RunSort["by"];
  cell: (run: RunSummary) => ReactNode;
}

function Feedback({ stats }: { stats: RunSummary["feedback_stats"] }) {
  const entries = Object.entries(stats ?? {});
  if (entries.length === 0) return null;
  return (
    <>
      {entries.slice(0, 3).map(([key, s]) => {
        const scored = s.avg !== null && s.avg !== undefined;
        const value = scored ? (Math.round(s.avg! * 100) / 100).toString() : (Object.keys(s.values ?? {})[0] ?? `${s.n}`);
        const tone = !scored ? "" : s.avg! >= 0.5 ? "badge-ok" : "badge-error";
        return (
          <span key={key} className={`badge ${tone}`} title={`${key}: ${s.n} feedback`}>
            {key} <b>{value}</b>
          </span>
        );
      })}
      {entries.length > 3 ? <span className="faint">+{entries.length - 3}</span> : null}
    </>
  );
}

const failed = (run: RunSummary) => !!run.error || run.status === "error";
const preview = (text: string | null) =>
  text ? (
    <span className="truncate" title={text}>
      {text}
    </span>
  ) : (
    <span className="faint">–</span>
  );

/** Every column the runs table can show; the name column is always there. */
export const RUN_COLUMNS: RunColumn[] = [
  {
    key: "name",
    label: "Name",
    min: 170,
    grow: 1.4,
    shown: true,
    cell: (run) => (
      <span className={styles.nameCell}>
        <span
          className={`dot ${failed(run) ? "dot-error" : run.status === "success" ? "dot-ok" : "dot-pending"}`}
          title={failed(run) ? "Error" : run.status === "success" ? "Success" : "Running"}
        />
        <span className="truncate" title={run.name}>
          {run.name}
        </span>
      </span>
    ),
  },
  { key: "input", label: "Input", min: 140, grow: 2, shown: true, cell: (run) => preview(run.inputs_preview) },
  {
    key: "output",
    label: "Output",
    min: 140,
    grow: 2,
    shown: true,
    cell: (run) =>
      failed(run) ? (
        <span className="err-text truncate" title={run.error ?? ""}>
          {run.error ?? "Error"}
        </span>
      ) : (
        preview(run.outputs_preview)
      ),
  },
  {
    key: "type",
    label: "Type",
    min: 80,
    shown: false,
    cell: (run) => <span style={{ color: runTypeColor(run.run_type), fontWeight: 500 }}>{run.run_type}</span>,
  },
  {
    key: "status",
    label: "Status",
    min: 74,
    shown: false,
    cell: (run) =>
      failed(run) ? (
        <span className="err-text">Error</span>
      ) : run.status === "success" ? (
        <span className="muted">Success</span>
      ) : (
        <span style={{ color: "var(--warn)" }}>Running</span>
      ),
  },
  {
    key: "model",
    label: "Model",
    min: 130,
    grow: 0.8,
    shown: false,
    cell: (run) =>
      run.model ? (
        <span className="truncate mono" title={run.model}>
          {run.model}
        </span>
      ) : (
        <span className="faint">–</span>
      ),
  },
  {
    key: "start",
    label: "Start time",
    min: 150,
    sort: "start_time",
    shown: true,
    cell: (run) => (
      <span className="muted" title={formatExactTime(run.start_time) ?? undefined}>
        {formatTime(run.start_time)}
      </span>
    ),
  },
  { key: "latency", label: "Latency", min: 86, sort: "latency", num: true, shown: true, cell: (run) => formatLatency(run.latency) },
  {
    key: "first",
    label: "First token",
    min: 92,
    sort: "first_token",
    num: true,
    shown: false,
    cell: (run) => <span className="muted">{formatLatency(secondsBetween(run.start_time, run.first_token_time))}</span>,
  },
  {
    key: "tokens",
    label: "Tokens",
    min: 80,
    sort: "total_tokens",
    num: true,
    shown: true,
    cell: (run) => (
      <span title={`${run.prompt_tokens} prompt + ${run.completion_tokens} completion`}>{formatTokens(run.total_tokens)}</span>
    ),
  },
  { key: "cost", label: "Cost", min: 96, sort: "total_cost", num: true, shown: true, cell: (run) => formatCost(run.total_cost) },
  {
    key: "tags",
    label: "Tags",
    min: 90,
    grow: 0.8,
    shown: false,
    cell: (run) => (
      <span className={styles.pills}>
        {run.tags.slice(0, 3).map((t) => (
          <span key={t} className="badge" title={t}>
            {t}
          </span>
        ))}
        {run.tags.length > 3 ? <span className="faint">+{run.tags.length - 3}</span> : null}
      </span>
    ),
  },
  {
    key: "feedback",
    label: "Feedback",
    min: 110,
    grow: 1,
    shown: true,
    cell: (run) => (
      <span className={styles.pills}>
        <Feedback stats={run.feedback_stats} />
      </span>
    ),
  },
];

/** The grid tracks and the width below which the table scrolls sideways. */
export function gridOf(columns: RunColumn[]): { tracks: string; minWidth: number } {
  return {
    tracks: columns.map((c) => (c.grow ? `minmax(${c.min}px, ${c.grow}fr)` : `${c.min}px`)).join(" "),
    minWidth: columns.reduce((sum, c) => sum + c.min, 0),
  };
}

/** A header click: descending first, then ascending, then back to newest first. */
export function nextSort(current: RunSort | undefined, by: RunSort["by"]): string | null {
  if (current?.by !== by) return `${by}:desc`;
  return current.dir === "desc" ? `${by}:asc` : null;
}

/**
 * Beside the run panel: the name and the input preview (so runs of one name can be told apart),
 * narrowed, then as many of the chosen number columns as the room left takes.
 */
export function besidePanel(columns: RunColumn[], width: number): RunColumn[] {
  const kept = new Map<string, RunColumn>();
  for (const c of columns) if (c.key === "name" || c.key === "input") kept.set(c.key, { ...c, min: 140, grow: 1 });
  let room = width - 32 - [...kept.values()].reduce((sum, c) => sum + c.min, 0);
  for (const c of columns)
    if (c.num && c.min <= room) {
      kept.set(c.key, c);
      room -= c.min;
    }
  return columns.filter((c) => kept.has(c.key)).map((c) => kept.get(c.key)!);
}

const STORAGE_KEY = "tl-run-columns";

/** The columns the user chose (kept in this browser), in the table's order. */
export function useRunColumns(): [RunColumn[], (key: string, shown: boolean) => void] {
  const [chosen, setChosen] = useState<string[] | null>(null);
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
      if (Array.isArray(saved)) setChosen(saved.filter((k) => typeof k === "string"));
    } catch {
      // nothing saved, or not readable: the defaults
    }
  }, []);
  const keys = chosen ?? RUN_COLUMNS.filter((c) => c.shown).map((c) => c.key);
  const toggle = useCallback(
    (key: string, shown: boolean) => {
      const next = RUN_COLUMNS.filter((c) => c.key === "name" || (c.key === key ? shown : keys.includes(c.key))).map((c) => c.key);
      setChosen(next);
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    },
    [keys],
  );
  return [RUN_COLUMNS.filter((c) => c.key === "name" || keys.includes(c.key)), toggle];
}

/** The "Columns" menu: a checkbox per column. */
export function ColumnChooser({ shown, onToggle }: { shown: RunColumn[]; onToggle: (key: string, shown: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);
  return (
    <div className="menu-wrap" ref={ref}>
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="column-chooser">
        Columns
      </button>
      {open ? (
        <div className={`menu ${styles.columnMenu}`} role="menu">
          {RUN_COLUMNS.filter((c) => c.key !== "name").map((c) => (
            <label key={c.key} className="menu-item">
              <input type="checkbox" checked={shown.some((s) => s.key === c.key)} onChange={(e) => onToggle(c.key, e.target.checked)} />
              {c.label}
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}
