"use client";

import { RUN_COLUMNS, useRunColumns, type RunColumn } from "./run-columns";

/**
 * The runs table's columns: the address's `cols` (a saved view's) when it has them, else the ones
 * this browser keeps. Choosing columns changes whichever of the two is in use.
 */
export function useListColumns(
  params: URLSearchParams,
  setParams: (patch: Record<string, string | null>) => void,
): [RunColumn[], (key: string, shown: boolean) => void] {
  const [stored, toggleStored] = useRunColumns();
  const cols = params.get("cols");
  if (!cols) return [stored, toggleStored];
  const keys = cols.split(",");
  const columns = RUN_COLUMNS.filter((c) => c.key === "name" || keys.includes(c.key));
  const toggle = (key: string, shown: boolean) =>
    setParams({
      cols: RUN_COLUMNS.filter((c) => c.key === "name" || (c.key === key ? shown : keys.includes(c.key)))
        .map((c) => c.key)
        .join(","),
    });
  return [columns, toggle];
}
