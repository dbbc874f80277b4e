import { test } from "node:test";
import assert from "node:assert/strict";
import { ALPHA, histogram, percentiles } from "./sketch";
import { near } from "./test-near";

/** rollup_bin of migration 20261126000400_rollups, for building histograms here. */
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
function bin(x: number): number {
  if (x > 0) return Math.ceil(Math.log(x) / Math.log(GAMMA));
  if (x === 0) return -1_000_000;
  return -2_000_000 - Math.ceil(Math.log(-x) / Math.log(GAMMA));
}

/** PostgreSQL's percentile_cont over the values themselves. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lo = Math.floor(rank);
  return lo === rank ? sorted[lo] : sorted[lo] + (rank - lo) * (sorted[lo + 1] - sorted[lo]);
}

test("percentiles of values of either sign and zero, read as repeated codes with undone counts", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647) * 2 - 1;
  const values = Array.from({ length: 2_000 }, (_, i) => (i % 50 === 0 ? 0 : random() * 10 ** (random() * 6)));
  // As the database sends them: each value a row of its own, and rows added then taken out again.
  const bins = [...values.map(bin), bin(123), bin(-0.5), bin(123), bin(-0.5)];
  const ns = [...values.map(() => 1), 1, 1, -1, -1];
  const h = histogram({ bins, ns });
  const qs = [0, 0.01, 0.25, 0.5, 0.75, 0.99, 1];
  percentiles(h, qs).forEach((p, i) => near(p, exact(values, qs[i]), `q ${qs[i]}`));
});

test("an empty histogram, or one whose counts cancel, has no percentiles", () => {
  assert.deepEqual(percentiles(histogram({ bins: null, ns: null }), [0.5]), [null]);
  assert.deepEqual(percentiles(histogram({ bins: [3, 3], ns: [2, -2] }), [0.5, 0.99]), [null, null]);
});
