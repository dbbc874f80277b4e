/** Files the browser saves: CSV cells that cannot run as formulas, and the download itself. */

/**
 * One CSV cell. Text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed
 * with a quote, so an exported trace can never execute in the program that opens it.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Saves `text` as a file the browser downloads. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
