// Timestamps arrive as ISO strings with `Z`, with an offset, or with no zone (UTC), and as epoch
// milliseconds (JS `Date.now()`) or seconds. We keep microseconds (a bigint), which `Date` would drop.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Instants are kept within years 1 to 9999 (what ISO-8601 writes with four digits). */
const MIN_MS = -62_135_596_800_000;
const MAX_MS = 253_402_300_799_999;

export function parseInstant(value: unknown): bigint | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const ms = value < 1e11 ? value * 1000 : value;
    if (ms < MIN_MS || ms > MAX_MS) return null;
    return BigInt(Math.round(ms * 1000));
  }
  if (typeof value !== "string") return null;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "0", frac = "", zone] = m;
  let ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (Number.isNaN(ms) || ms < MIN_MS || ms > MAX_MS) return null;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return BigInt(ms) * 1000n + BigInt((frac + "000000").slice(0, 6));
}

// The last second formatted: the runs of a request share a few seconds, and Date is slow in Next's runtime.
let memoSecond = Number.NaN;
let memoBase = "";

/** ISO-8601 with 6 fractional digits and `Z`, as the SDKs expect back. */
export function formatMicros(micros: bigint): string {
  const second = Math.floor(Number(micros / 1000n) / 1000);
  if (second !== memoSecond) {
    memoBase = new Date(second * 1000).toISOString().slice(0, 19);
    memoSecond = second;
  }
  const base = memoBase;
  const frac = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${base}.${frac.toString().padStart(6, "0")}Z`;
}

/** The `YYYYMMDDTHHMMSSffffffZ` prefix of a dotted_order segment. */
export function dottedStamp(micros: bigint): string {
  return formatMicros(micros).replace(/[-:.]/g, "");
}

/** A stored timestamptz text (either driver) as ISO with microseconds and `Z`. */
export function isoFromDb(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return formatMicros(BigInt(value.getTime()) * 1000n);
  const micros = parseInstant(
    String(value)
      .replace(" ", "T")
      .replace(/([+-]\d{2})$/, "$1:00"),
  );
  return micros === null ? null : formatMicros(micros);
}
