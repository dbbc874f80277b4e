/**
 * The percentile sketch of run_sketches (migration 20261126000400_rollups): a log-scale histogram
 * whose bins grow by GAMMA, so a bin's estimate is within ALPHA of every value in it. Histograms
 * merge by adding counts per bin, and a change is undone by subtracting them.
 */
export const ALPHA = 0.01;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
const ZERO = -1_000_000;
const NEGATIVE = -2_000_000;

/** The value a bin code stands for (rollup_bin in SQL is its inverse). */
export function binValue(code: number): number {
  if (code === ZERO) return 0;
  const estimate = (i: number) => (2 * GAMMA ** i) / (GAMMA + 1);
  if (code <= NEGATIVE + 100_000) return -estimate(NEGATIVE - code);
  return estimate(code);
}

/** A histogram as read (HISTOGRAM in measures.ts): codes may repeat. */
export interface BinArrays {
  bins: number[] | null;
  ns: number[] | null;
}

/** A histogram ready for percentiles: its codes ascending, with the count of values up to each. */
export interface Histogram {
  codes: number[];
  seen: number[];
}

export const EMPTY: Histogram = { codes: [], seen: [] };

/**
 * Sums each code's counts (so a delta row's negative count cancels what it undoes), keeps the
 * positive ones and orders them. Codes order as their values do: negative values' codes lie below
 * ZERO's, the farther from zero the lower, and positive values' above it.
 */
export function histogram({ bins, ns }: BinArrays): Histogram {
  const summed = new Map<number, number>();
  bins?.forEach((code, i) => summed.set(code, (summed.get(code) ?? 0) + Number(ns![i])));
  const codes = [...summed.keys()].filter((c) => summed.get(c)! > 0).sort((a, b) => a - b);
  let total = 0;
  return { codes, seen: codes.map((c) => (total += summed.get(c)!)) };
}

/**
 * Percentiles by PostgreSQL's percentile_cont (interpolating between the two nearest ranks); each
 * rank's value is its bin's estimate. Null when the histogram is empty.
 */
export function percentiles({ codes, seen }: Histogram, qs: readonly number[]): (number | null)[] {
  const total = seen.at(-1) ?? 0;
  if (total === 0) return qs.map(() => null);
  // The value at a rank: the first code whose running count passes it (binary search).
  const at = (rank: number): number => {
    let lo = 0;
    let hi = seen.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rank < seen[mid]) hi = mid;
      else lo = mid + 1;
    }
    return binValue(codes[lo]);
  };
  return qs.map((q) => {
    const rank = q * (total - 1);
    const lo = Math.floor(rank);
    const low = at(lo);
    return lo === rank ? low : low + (rank - lo) * (at(lo + 1) - low);
  });
}
