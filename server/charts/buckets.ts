import { badRequest } from "../core/errors";

const NICE = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400];
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
/** Enough points for a readable line without returning thousands of buckets. */
const TARGET_BUCKETS = 60;
export const MAX_BUCKETS = 1000;

/** The bucket width in seconds: the one given, or the smallest round width giving at most ~60 buckets. */
export function bucketSeconds(rangeSeconds: number, given?: number | string | null): number {
  let seconds: number;
  if (typeof given === "number") seconds = given;
  else if (typeof given === "string") {
    const m = /^(\d+)\s*([smhdw])$/i.exec(given)!;
    seconds = Number(m[1]) * UNITS[m[2].toLowerCase()];
  } else {
    // From a day up, whole hours: the analytics rollups answer those without reading the runs.
    seconds =
      NICE.find((n) => rangeSeconds / n <= TARGET_BUCKETS && (rangeSeconds < 86_400 || n % 3600 === 0)) ??
      Math.ceil(rangeSeconds / TARGET_BUCKETS / 86_400) * 86_400;
  }
  if (rangeSeconds / seconds > MAX_BUCKETS) {
    throw badRequest(
      `A bucket of ${seconds}s over this range makes more than ${MAX_BUCKETS} points: choose a wider bucket or a shorter range.`,
    );
  }
  return seconds;
}

/** Bucket starts covering [start, end), aligned to multiples of the width since the Unix epoch. */
export function bucketStarts(startMs: number, endMs: number, seconds: number): number[] {
  const width = seconds * 1000;
  const out: number[] = [];
  for (let t = Math.floor(startMs / width) * width; t < endMs; t += width) out.push(t);
  return out;
}
