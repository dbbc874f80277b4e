"use client";

import { useState, type ReactNode } from "react";
import styles from "./conversation.module.css";

const MAX_ENTRIES = 200;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

function pretty(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className={styles.jNull}>{String(value)}</span>;
  if (typeof value === "string") return <span className={styles.jString}>{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className={styles.jNumber}>{String(value)}</span>;
  if (typeof value === "boolean") return <span className={styles.jBool}>{String(value)}</span>;
  return <span>{String(value)}</span>;
}

function Node({ name, value, depth }: { name?: ReactNode; value: unknown; depth: number }) {
  const label = name === undefined ? null : <span className={styles.jKey}>{name}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className={styles.jRow}>
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0)
    return (
      <div className={styles.jRow}>
        {label}
        {open}
        {close}
      </div>
    );
  return (
    <details className={styles.jNode} open={depth < 2}>
      <summary>
        {label}
        <span className={styles.jMeta}>
          {open} {count(entries.length, Array.isArray(value) ? "item" : "key")} {close}
        </span>
      </summary>
      <div className={styles.jChildren}>
        {entries.slice(0, MAX_ENTRIES).map(([k, v]) => (
          <Node key={k} name={k} value={v} depth={depth + 1} />
        ))}
        {entries.length > MAX_ENTRIES && <div className={styles.jMeta}>… {entries.length - MAX_ENTRIES} more (see raw)</div>}
      </div>
    </details>
  );
}

/** Any JSON value as a collapsible tree, with a toggle to the raw pretty-printed text. */
export function JsonView({ value, title, initialRaw = false }: { value: unknown; title?: ReactNode; initialRaw?: boolean }) {
  const [raw, setRaw] = useState(initialRaw);
  const scalar = value === null || typeof value !== "object";
  return (
    <div className={styles.json}>
      {(title || !scalar) && (
        <div className={title ? styles.jsonBar : styles.jsonBarFloating}>
          {title && <span className={styles.jsonTitle}>{title}</span>}
          {!scalar && (
            <button type="button" className={styles.toggle} onClick={() => setRaw(!raw)} aria-pressed={raw}>
              {raw ? "Tree" : "Raw"}
            </button>
          )}
        </div>
      )}
      {raw || scalar ? <pre className={styles.jsonRaw}>{pretty(value)}</pre> : <Node value={value} depth={0} />}
    </div>
  );
}
