/** Round axis ticks from zero: four equal steps up to a round ceiling (whole steps for counts). */
export function niceTicks(max: number, integer: boolean): number[] {
  if (!(max > 0)) return integer ? [0, 1] : [0, 0.5, 1];
  if (integer && max <= 4) return Array.from({ length: Math.ceil(max) + 1 }, (_, i) => i);
  const exponent = Math.floor(Math.log10(max));
  let top = max;
  search: for (let k = exponent - 1; k <= exponent + 1; k++) {
    for (const m of [1, 2, 4, 6, 8]) {
      const candidate = Number((m * 10 ** k).toPrecision(12));
      if (candidate >= max && (!integer || candidate % 4 === 0)) {
        top = candidate;
        break search;
      }
    }
  }
  return [0, 1, 2, 3, 4].map((i) => Number(((top * i) / 4).toPrecision(12)));
}

/** The fewest decimals (up to 8) that write every tick exactly, so no two labels read the same. */
export function decimalsFor(ticks: number[]): number {
  for (let d = 0; d < 8; d++) if (ticks.every((t) => Math.abs(Number(t.toFixed(d)) - t) < 1e-9 * Math.max(1, Math.abs(t)))) return d;
  return 8;
}

/** Ticks on [lo, hi] in about `steps` round steps (1, 2, 2.5 or 5 × a power of ten), for axes that need not start at zero. */
export function rangeTicks(lo: number, hi: number, steps = 4): number[] {
  if (!(hi > lo)) return lo === hi && Number.isFinite(lo) ? rangeTicks(lo - 0.5, lo + 0.5, steps) : [0, 0.5, 1];
  const rough = (hi - lo) / steps;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const first = Math.floor(lo / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let t = first; t < hi + step - 1e-9 * step; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/**
 * A score axis: 0–1 scores keep the 0–1 scale (quarters); other scores get round ticks around
 * their range.
 */
export function scoreTicks(values: number[]): number[] {
  const finite = values.filter(Number.isFinite);
  if (finite.every((v) => v >= 0 && v <= 1)) return [0, 0.25, 0.5, 0.75, 1];
  return rangeTicks(Math.min(...finite), Math.max(...finite));
}

/** Axis labels for a metric's ticks (seconds, dollars, a rate, counts), each distinct, with as many decimals as the steps need. */
export function axisLabels(metric: string, ticks: number[]): string[] {
  const top = Math.max(...ticks.map(Math.abs));
  const fixed = (values: number[]) => {
    const d = decimalsFor(values);
    return values.map((v) => String(Number(v.toFixed(d))));
  };
  if (metric.startsWith("latency") || metric.startsWith("first_token")) {
    if (top < 1) return fixed(ticks.map((t) => t * 1000)).map((v, i) => (ticks[i] === 0 ? "0" : `${v}ms`));
    return fixed(ticks).map((v, i) => (ticks[i] === 0 ? "0" : `${v}s`));
  }
  if (metric.endsWith("_cost")) return fixed(ticks).map((v, i) => (ticks[i] === 0 ? "$0" : `$${v}`));
  if (metric === "error_rate") return fixed(ticks.map((t) => t * 100)).map((v) => `${v}%`);
  if (top >= 10_000) {
    const scale = top >= 1e9 ? 1e9 : top >= 1e6 ? 1e6 : 1e3;
    const suffix = scale === 1e9 ? "B" : scale === 1e6 ? "M" : "K";
    return fixed(ticks.map((t) => t / scale)).map((v, i) => (ticks[i] === 0 ? "0" : `${v}${suffix}`));
  }
  return fixed(ticks);
}
