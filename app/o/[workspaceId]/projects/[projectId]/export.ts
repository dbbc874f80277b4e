import type { RunFull } from "@/app/trpc-types";
import { csvCell } from "../../_components/download";

export { csvCell, download } from "../../_components/download";

const COLUMNS = [
  "id",
  "trace_id",
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "latency",
  "total_tokens",
  "total_cost",
  "error",
  "inputs",
  "outputs",
  "tags",
] as const;

/** Runs as CSV: one row each, JSON for inputs, outputs and tags. */
export function runsCsv(runs: Partial<Pick<RunFull, (typeof COLUMNS)[number]>>[]): string {
  const lines = [COLUMNS.join(",")];
  for (const run of runs) lines.push(COLUMNS.map((c) => csvCell(run[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
