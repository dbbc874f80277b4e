"use client";

import { useEffect, useState } from "react";
import { RANGES } from "./view-state";
import styles from "./list-controls.module.css";

type SetParams = (patch: Record<string, string | null>) => void;

/** `datetime-local`'s value (local time, minutes) of an ISO instant, and back. */
const toLocal = (iso: string | null) => {
  if (!iso || Number.isNaN(Date.parse(iso))) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (value: string) => (value ? new Date(value).toISOString() : null);

/**
 * The lists' time range: all time, the last hour, day, week or month, or from/to. Kept in the
 * address (`range`, or `from` and `to`), so a link shows the same runs.
 */
export function TimeRange({ params, setParams }: { params: URLSearchParams; setParams: SetParams }) {
  const range = params.get("range");
  const custom = !range && (params.has("from") || params.has("to"));
  const [editing, setEditing] = useState(false);
  const value = range ?? (custom || editing ? "custom" : "");
  return (
    <div className={styles.range} data-testid="time-range">
      <select
        className="select"
        aria-label="Time range"
        value={value}
        onChange={(e) => {
          const next = e.target.value;
          if (next === "custom") {
            setEditing(true);
            const since = new Date(Date.now() - 86_400_000).toISOString();
            setParams({ range: null, from: params.get("from") ?? since, to: params.get("to") });
          } else {
            setEditing(false);
            setParams({ range: next || null, from: null, to: null });
          }
        }}
      >
        <option value="">All time</option>
        {RANGES.map((r) => (
          <option key={r.key} value={r.key}>
            {r.label}
          </option>
        ))}
        <option value="custom">Custom…</option>
      </select>
      {value === "custom" ? (
        <>
          <input
            className="input"
            type="datetime-local"
            aria-label="From"
            value={toLocal(params.get("from"))}
            onChange={(e) => setParams({ from: fromLocal(e.target.value) })}
          />
          <span className="faint">–</span>
          <input
            className="input"
            type="datetime-local"
            aria-label="To"
            value={toLocal(params.get("to"))}
            onChange={(e) => setParams({ to: fromLocal(e.target.value) })}
          />
        </>
      ) : null}
    </div>
  );
}

/**
 * The full-text search box (name, inputs, outputs and error, as `search("...")` in the filter
 * language): applied as you type, after a pause, and kept in the address as `q`.
 */
export function SearchBox({ value, onChange, placeholder }: { value: string; onChange: (q: string) => void; placeholder: string }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onChange(draft.trim()), 350);
    return () => clearTimeout(timer);
  }, [draft, value, onChange]);
  return (
    <label className={styles.search}>
      <svg width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden>
        <circle cx="7" cy="7" r="4.5" />
        <path d="M10.5 10.5 14 14" strokeLinecap="round" />
      </svg>
      <input
        type="search"
        className={styles.searchInput}
        value={draft}
        placeholder={placeholder}
        aria-label="Search"
        data-testid="list-search"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") onChange(draft.trim());
          if (e.key === "Escape") setDraft("");
        }}
      />
    </label>
  );
}
