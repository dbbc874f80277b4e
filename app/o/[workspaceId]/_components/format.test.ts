import assert from "node:assert/strict";
import { test } from "node:test";
import { relativeTime } from "./format";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

test("relative time reads the past as ago and the future as in", () => {
  assert.equal(relativeTime(at(-10), NOW), "just now");
  assert.equal(relativeTime(at(-300), NOW), "5m ago");
  assert.equal(relativeTime(at(-3 * 3600), NOW), "3h ago");
  assert.equal(relativeTime(at(-2 * 86_400), NOW), "2d ago");
  assert.equal(relativeTime(at(10), NOW), "just now", "a clock a few seconds ahead is not the future");
  assert.equal(relativeTime(at(300), NOW), "in 5m");
  assert.equal(relativeTime(at(7 * 86_400), NOW), "in 7 days", "a 7-day invite");
  assert.equal(relativeTime(at(86_400), NOW), "in 1 day");
});
