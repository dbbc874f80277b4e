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

export interface Bin {
  code: number;
  n: number;
}

/** A histogram read as two arrays (`array_agg(bin)`, `array_agg(n::float8)`), codes not yet summed. */
export interface BinArrays {
  bins: number[];
  ns: number[];
}

export function binsFrom({ bins, ns }: BinArrays): Bin[] {
  return bins.map((code, i) => ({ code, n: Number(ns[i]) }));
}

/**
 * Percentiles by PostgreSQL's percentile_cont (interpolating between the two nearest ranks) from
 * bins, a code's counts summed first (so a delta row's negative count cancels what it undoes);
 * each rank's value is its bin's estimate. Null when the histogram is empty.
 */
export function percentiles(bins: readonly Bin[], qs: readonly number[]): (number | null)[] {
  const merged = new Map<number, number>();
  for (const b of bins) merged.set(b.code, (merged.get(b.code) ?? 0) + b.n);
  const sorted = [...merged]
    .filter(([, n]) => n > 0)
    .map(([code, n]) => ({ value: binValue(code), n }))
    .sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, b) => sum + b.n, 0);
  if (total === 0) return qs.map(() => null);
  const at = (rank: number): number => {
    let seen = 0;
    for (const b of sorted) {
      seen += b.n;
      if (rank < seen) return b.value;
    }
    return sorted[sorted.length - 1].value;
  };
  return qs.map((q) => {
    const rank = q * (total - 1);
    const lo = Math.floor(rank);
    const low = at(lo);
    return lo === rank ? low : low + (rank - lo) * (at(lo + 1) - low);
  });
}
