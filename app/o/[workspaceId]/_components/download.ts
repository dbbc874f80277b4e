/** Files the browser saves: CSV cells that cannot run as formulas, and the download itself. */

export { csvCell } from "@/server/core/csv";

/** Saves `text` as a file the browser downloads. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
