import assert from "node:assert/strict";
import { ALPHA } from "./sketch";

/** Asserts a percentile read from the sketches is within their relative error of the exact one. */
export function near(actual: number | null | undefined, expected: number | null, what = "value"): void {
  if (expected === null) return assert.equal(actual ?? null, null, `${what}: expected no value`);
  assert.ok(
    typeof actual === "number" && Math.abs(actual - expected) <= ALPHA * Math.abs(expected) + 1e-12,
    `${what}: ${actual} is not within ${ALPHA * 100}% of ${expected}`,
  );
}

export function nearAll(actual: (number | null)[], expected: (number | null)[], what = "series"): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((a, i) => near(a, expected[i], `${what}[${i}]`));
}
