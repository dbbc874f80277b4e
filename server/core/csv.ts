/**
 * One CSV cell. Text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed
 * with a quote, so an exported trace can never execute in the program that opens it.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text, header first. */
export const csvText = (header: string[], rows: unknown[][]) =>
  [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\n") + "\n";
