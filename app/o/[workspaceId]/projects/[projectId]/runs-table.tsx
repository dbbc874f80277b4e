"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { RunSummary } from "@/app/trpc-types";
import { gridOf, type RunColumn } from "./run-columns";
import type { RunSort } from "./runs-input";
import styles from "./runs.module.css";

const ROW_HEIGHT = 36;
const unchanging = () => () => {};

/** The rows ticked for a bulk action (add to dataset, export). */
export interface Checked {
  ids: ReadonlySet<string>;
  set: (ids: string[], on: boolean) => void;
}

function Row({
  run,
  columns,
  selected,
  onSelect,
  checked,
}: {
  run: RunSummary;
  columns: RunColumn[];
  selected: boolean;
  onSelect: (run: RunSummary) => void;
  checked: Checked;
}) {
  return (
    <div
      role="row"
      aria-selected={selected}
      tabIndex={-1}
      className={`${styles.row} ${selected ? styles.rowSelected : ""}`}
      onClick={() => onSelect(run)}
      data-testid="run-row"
    >
      <div role="cell" className={styles.checkCell} onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={`Select ${run.name}`}
          checked={checked.ids.has(run.id)}
          onChange={(e) => checked.set([run.id], e.target.checked)}
        />
      </div>
      {columns.map((c) => (
        <div role="cell" key={c.key} className={`${styles.cell} ${c.num ? "num" : ""}`} data-column={c.key}>
          {c.cell(run)}
        </div>
      ))}
    </div>
  );
}

/** The runs table: the chosen columns, rows virtualized, the next page fetched as the end comes into view. */
export function RunsTable({
  runs,
  columns,
  sort,
  onSort,
  hasMore,
  loadingMore,
  onLoadMore,
  selectedId,
  onSelect,
  checked,
}: {
  runs: RunSummary[];
  checked: Checked;
  columns: RunColumn[];
  sort: RunSort | undefined;
  onSort: (by: RunSort["by"]) => void;
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
  // The rows are the browser's own (their times are in its time zone): on the server, and while the
  // page hydrates, the table is its header; the rows follow in the render right after.
  const hydrated = useSyncExternalStore(
    unchanging,
    () => true,
    () => false,
  );
  const items = hydrated ? virtualizer.getVirtualItems() : [];
  const lastIndex = items.length ? items[items.length - 1].index : 0;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= runs.length - 10) onLoadMore();
  }, [hasMore, loadingMore, lastIndex, runs.length, onLoadMore]);

  const selectedIndex = selectedId ? runs.findIndex((r) => r.id === selectedId) : -1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  const grid = gridOf(columns);
  const allChecked = runs.length > 0 && runs.every((r) => checked.ids.has(r.id));
  return (
    <div
      ref={scrollRef}
      className={styles.scroll}
      role="table"
      aria-label="Runs"
      aria-rowcount={runs.length}
      data-testid="runs-table"
      style={{ ["--run-grid" as string]: `32px ${grid.tracks}`, ["--run-min-width" as string]: `${grid.minWidth + 32}px` }}
    >
      <div role="row" className={`${styles.row} ${styles.header}`}>
        <div role="columnheader" className={styles.checkCell}>
          <input
            type="checkbox"
            aria-label="Select all loaded runs"
            checked={allChecked}
            onChange={(e) =>
              checked.set(
                runs.map((r) => r.id),
                e.target.checked,
              )
            }
          />
        </div>
        {columns.map((c) => {
          const sorted = c.sort && sort?.by === c.sort ? sort.dir : null;
          return (
            <div
              role="columnheader"
              key={c.key}
              className={`${styles.cell} ${c.num ? "num" : ""}`}
              aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
            >
              {c.sort ? (
                <button type="button" className={styles.sortButton} onClick={() => onSort(c.sort!)} data-testid={`sort-${c.key}`}>
                  {c.label}
                  <span aria-hidden className={sorted ? "" : "faint"}>
                    {sorted === "asc" ? "↑" : sorted === "desc" ? "↓" : "↕"}
                  </span>
                </button>
              ) : (
                c.label
              )}
            </div>
          );
        })}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {items.map((item) => (
          <div
            key={item.key}
            style={{ position: "absolute", top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
          >
            {item.index < runs.length ? (
              <Row
                run={runs[item.index]}
                columns={columns}
                selected={runs[item.index].id === selectedId}
                onSelect={onSelect}
                checked={checked}
              />
            ) : (
              <div className={`${styles.row} ${styles.loadingRow}`}>
                <span className="spinner" /> Loading more runs…
              </div>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
