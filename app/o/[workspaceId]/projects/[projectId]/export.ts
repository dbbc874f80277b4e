import type { RunFull } from "@/app/trpc-types";

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

/**
 * One CSV cell. Text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed
 * with a quote, so an exported trace can never execute in the program that opens it.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Runs as CSV: one row each, JSON for inputs, outputs and tags. */
export function runsCsv(runs: Partial<Pick<RunFull, (typeof COLUMNS)[number]>>[]): string {
  const lines = [COLUMNS.join(",")];
  for (const run of runs) lines.push(COLUMNS.map((c) => csvCell(run[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Saves `text` as a file the browser downloads. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
