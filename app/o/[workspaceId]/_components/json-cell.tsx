"use client";

import styles from "./json-cell.module.css";

const MAX_LINES = 4;
const MAX_VALUE = 90;

const clip = (text: string, max = MAX_VALUE) => (text.length > max ? `${text.slice(0, max)}…` : text);

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className={styles.null}>{String(value)}</span>;
  if (typeof value === "string") return <span className={styles.string}>{clip(JSON.stringify(value))}</span>;
  if (typeof value === "number" || typeof value === "boolean") return <span className={styles.number}>{String(value)}</span>;
  return <span className={styles.nested}>{clip(JSON.stringify(value))}</span>;
}

/**
 * A JSON value in a table cell, formatted: an object's first keys one per line (`key: value`,
 * long values cut), "+N more" for the rest; anything else on one line. Text only, never HTML.
 */
export function JsonCell({ value, lines = MAX_LINES }: { value: unknown; lines?: number }) {
  if (value === null || value === undefined) return <span className="faint">–</span>;
  const entries: [string, unknown][] | null =
    typeof value === "object" ? (Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value as object)) : null;
  if (!entries)
    return (
      <div className={styles.cell}>
        <Value value={value} />
      </div>
    );
  if (entries.length === 0) return <span className={styles.cell}>{Array.isArray(value) ? "[]" : "{}"}</span>;
  const shown = entries.slice(0, lines);
  return (
    <div className={styles.cell} data-testid="json-cell">
      {shown.map(([key, v]) => (
        <div key={key} className={styles.line}>
          <span className={styles.key}>{key}:</span> <Value value={v} />
        </div>
      ))}
      {entries.length > shown.length && <div className={styles.more}>+{entries.length - shown.length} more</div>}
    </div>
  );
}
