/** Number and time formatting shared by the UI pages. Pure functions: safe on server and client. */

const NUMBER = new Intl.NumberFormat("en-US");
const COMPACT = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Seconds as "412ms", "3.21s", "2m 05s". */
export function formatLatency(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "–";
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)}s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - m * 60);
  return `${m}m ${String(s).padStart(2, "0")}s`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return "–";
  return n >= 100_000 ? COMPACT.format(n) : NUMBER.format(n);
}

export function formatTokens(n: number | null | undefined): string {
  if (!n) return "–";
  return n >= 100_000 ? COMPACT.format(n) : NUMBER.format(n);
}

/** Dollars with enough digits to tell small costs apart. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || usd === 0) return "–";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 100) return `$${usd.toFixed(3)}`;
  return `$${NUMBER.format(Math.round(usd))}`;
}

export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "–";
  if (rate === 0) return "0%";
  if (rate < 0.001) return "<0.1%";
  return `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** "Nov 23, 14:05:09" in the viewer's time zone (the year only when it is not this year). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const month = d.toLocaleString("en-US", { month: "short" });
  const year = d.getFullYear() === new Date().getFullYear() ? "" : ` ${d.getFullYear()}`;
  return `${month} ${d.getDate()}${year}, ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Full precision for tooltips: "2026-11-23 14:05:09.123456". */
export function formatExactTime(iso: string | null | undefined): string {
  if (!iso) return "";
  return iso.replace("T", " ").replace("Z", " UTC");
}

/** "just now", "5m ago", "3h ago", "2d ago" (or "in 5m", "in 7 days" ahead), then the date. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "–";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const ahead = t > now;
  const s = Math.round(Math.abs(now - t) / 1000);
  if (s < 45) return "just now";
  const span =
    s < 3600 ? `${Math.round(s / 60)}m` : s < 86_400 ? `${Math.round(s / 3600)}h` : s < 30 * 86_400 ? `${Math.round(s / 86_400)}d` : null;
  if (!span) return formatTime(iso).split(",")[0];
  if (!ahead) return `${span} ago`;
  const days = Math.round(s / 86_400);
  return s >= 86_400 ? `in ${days} day${days === 1 ? "" : "s"}` : `in ${span}`;
}

/** Seconds between two ISO instants; null when either is missing. */
export function secondsBetween(from: string | null | undefined, to: string | null | undefined): number | null {
  if (!from || !to) return null;
  const a = Date.parse(from);
  const b = Date.parse(to);
  return Number.isNaN(a) || Number.isNaN(b) ? null : (b - a) / 1000;
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}
