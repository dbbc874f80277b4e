import { useEffect, useRef } from "react";
import type { RouterOutputs } from "@/app/trpc-types";
import { formatCost, formatLatency, formatTokens } from "../../../_components/format";
import { outputText } from "./output-diff";
import { Delta, ScoreChip } from "./score";
import styles from "./compare.module.css";

type Comparison = RouterOutputs["experiments"]["compare"];

const preview = (value: unknown) => {
  const text = outputText(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

export interface Focus {
  row: number;
  column: number;
}

/**
 * One row per example, a column per experiment; cells coloured by their verdict against the
 * baseline. ↑/↓ move between examples, ←/→ between experiments, Enter opens the focused cell's trace.
 */
export function CompareGrid({
  comparison,
  focus,
  onFocus,
  onOpen,
}: {
  comparison: Comparison;
  focus: Focus;
  onFocus: (focus: Focus) => void;
  onOpen: (experimentId: string, traceId: string) => void;
}) {
  const table = useRef<HTMLTableElement>(null);
  const { rows, experiments } = comparison;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      // Enter on a focused button or link is that control's own.
      if (event.key === "Enter" && target?.closest("button, a")) return;
      const move: Record<string, [number, number]> = {
        ArrowUp: [-1, 0],
        ArrowDown: [1, 0],
        ArrowLeft: [0, -1],
        ArrowRight: [0, 1],
        k: [-1, 0],
        j: [1, 0],
      };
      if (move[event.key]) {
        event.preventDefault();
        const [dr, dc] = move[event.key];
        onFocus({
          row: Math.max(0, Math.min(rows.length - 1, focus.row + dr)),
          column: Math.max(0, Math.min(experiments.length - 1, focus.column + dc)),
        });
      } else if (event.key === "Enter") {
        const experiment = experiments[focus.column];
        const run = rows[focus.row]?.cells[experiment.id]?.runs[0];
        if (run) onOpen(experiment.id, run.trace_id);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [focus, rows, experiments, onFocus, onOpen]);
  useEffect(() => {
    table.current?.querySelector(`[data-focus="true"]`)?.scrollIntoView({ block: "nearest" });
  }, [focus]);

  return (
    <table ref={table} className={`table ${styles.grid}`} data-testid="compare-grid">
      <colgroup>
        <col style={{ width: "22%" }} />
        <col style={{ width: "16%" }} />
        {experiments.map((e) => (
          <col key={e.id} />
        ))}
      </colgroup>
      <thead>
        <tr>
          <th>Inputs</th>
          <th>Reference</th>
          {experiments.map((e) => (
            <th key={e.id} className="truncate" title={e.name}>
              {e.name}
              {experiments.length > 1 && e.id === comparison.baseline_id && (
                <span className="badge badge-accent" style={{ marginLeft: 6 }}>
                  baseline
                </span>
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          <tr key={row.id} className={r === focus.row ? styles.rowSelected : undefined} data-testid="compare-row">
            <td onClick={() => onFocus({ row: r, column: focus.column })}>
              <div className={styles.cellText}>{preview(row.inputs)}</div>
            </td>
            <td onClick={() => onFocus({ row: r, column: focus.column })}>
              <div className={styles.cellText}>{row.exists ? preview(row.outputs) : <span className="faint">deleted</span>}</div>
            </td>
            {experiments.map((e, c) => {
              const cell = row.cells[e.id];
              const focused = r === focus.row && c === focus.column;
              const verdictClass = cell?.verdict === "worse" ? styles.worse : cell?.verdict === "better" ? styles.better : "";
              return (
                <td
                  key={e.id}
                  className={`${verdictClass} ${focused ? styles.focused : ""}`}
                  data-focus={focused}
                  data-verdict={cell?.verdict ?? undefined}
                  onClick={() => onFocus({ row: r, column: c })}
                  onDoubleClick={() => cell?.runs[0] && onOpen(e.id, cell.runs[0].trace_id)}
                >
                  {!cell ? (
                    <span className="faint">not run</span>
                  ) : (
                    <div className={styles.cell}>
                      <div className={styles.cellText} style={cell.errors ? { color: "var(--error)" } : undefined}>
                        {cell.runs[0]?.error ?? preview(cell.runs[0]?.outputs)}
                      </div>
                      <div className="row" style={{ gap: 4, flexWrap: "wrap" }}>
                        {Object.entries(cell.scores).map(([k, s]) => (
                          <ScoreChip key={k} name={k} {...s} />
                        ))}
                        <Delta value={cell.delta} />
                      </div>
                      <div className={styles.cellMeta}>
                        <span>{formatLatency(cell.latency)}</span>
                        <span>{formatTokens(cell.total_tokens)} tok</span>
                        <span>{formatCost(cell.total_cost)}</span>
                        {cell.runs.length > 1 && <span>×{cell.runs.length}</span>}
                      </div>
                    </div>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
