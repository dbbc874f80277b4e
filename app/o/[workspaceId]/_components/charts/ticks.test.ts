import assert from "node:assert/strict";
import { test } from "node:test";
import { axisLabels, niceTicks, rangeTicks, scoreTicks } from "./ticks";

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

test("axis labels: as many decimals as the steps need, never two alike", () => {
  const distinct = (labels: string[]) => assert.equal(new Set(labels).size, labels.length, labels.join(", "));
  assert.deepEqual(axisLabels("error_rate", niceTicks(0.02, false)), ["0%", "0.5%", "1%", "1.5%", "2%"]);
  assert.deepEqual(axisLabels("total_cost", niceTicks(0.0123, false)), ["$0", "$0.005", "$0.01", "$0.015", "$0.02"]);
  assert.deepEqual(axisLabels("latency_p50", niceTicks(0.35, false)), ["0", "100ms", "200ms", "300ms", "400ms"]);
  assert.deepEqual(axisLabels("latency_p99", niceTicks(2.2, false)), ["0", "1s", "2s", "3s", "4s"]);
  assert.deepEqual(axisLabels("run_count", niceTicks(346, true)), ["0", "100", "200", "300", "400"]);
  assert.deepEqual(axisLabels("total_tokens", niceTicks(123_456, true)), ["0", "50K", "100K", "150K", "200K"]);
  for (const metric of ["error_rate", "total_cost", "latency_p50", "total_tokens", "feedback:correctness"])
    for (const max of [0.00012, 0.0031, 0.018, 0.088, 0.6, 1, 3.3, 47, 1234, 98_765, 2_500_000]) {
      distinct(axisLabels(metric, niceTicks(max, false)));
      distinct(axisLabels(metric, rangeTicks(max / 3, max)));
    }
});

test("score axes: 0–1 scores stay on 0–1; other scales get round steps around their range", () => {
  assert.deepEqual(scoreTicks([0.5, 0.75, 1]), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(scoreTicks([1, 1]), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(scoreTicks([2, 7.5]), [2, 4, 6, 8]);
  assert.deepEqual(rangeTicks(-1, 3), [-1, 0, 1, 2, 3]);
  assert.deepEqual(rangeTicks(5, 5), [4.5, 4.75, 5, 5.25, 5.5]);
});
