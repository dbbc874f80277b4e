import assert from "node:assert/strict";
import { test } from "node:test";
import { niceTicks } from "./ticks";

test("axis ticks: four round steps from zero; whole numbers for counts", () => {
  assert.deepEqual(niceTicks(5, true), [0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(1, true), [0, 1]);
  assert.deepEqual(niceTicks(3, true), [0, 1, 2, 3]);
  assert.deepEqual(niceTicks(346, true), [0, 100, 200, 300, 400]);
  assert.deepEqual(niceTicks(0.088, false), [0, 0.025, 0.05, 0.075, 0.1]);
  assert.deepEqual(niceTicks(0.2, false), [0, 0.05, 0.1, 0.15, 0.2]);
  assert.deepEqual(niceTicks(0, false), [0, 0.5, 1]);
  for (const max of [0.0011, 7, 41, 12_345, 999]) {
    const ticks = niceTicks(max, true);
    assert.ok(ticks[ticks.length - 1] >= max && ticks.every(Number.isInteger), `${max}: ${ticks}`);
  }
});
