import assert from "node:assert/strict";
import { test } from "node:test";
import { timeTicks } from "./time-ticks";

// The axis speaks the viewer's zone: fix one (whole hours from UTC, as the buckets are) for the figures below.
process.env.TZ = "Europe/Berlin";

/** Bucket starts over [end - range, end), as the charts service aligns them. */
function buckets(end: number, rangeSeconds: number, bucketSeconds: number): string[] {
  const width = bucketSeconds * 1000;
  const out: string[] = [];
  for (let t = Math.floor((end - rangeSeconds * 1000) / width) * width; t < end; t += width) out.push(new Date(t).toISOString());
  return out;
}
const at = (iso: string) => new Date(iso).getTime(); // local time
const localOf = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

test("time ticks: a round step per range, at most seven marks, each labelled with its round instant", () => {
  const end = at("2026-11-27T15:43:00");
  const hour = timeTicks(buckets(end, 3600, 60), 60);
  assert.deepEqual(hour.ticks.map(hour.label), ["14:50", "15:00", "15:10", "15:20", "15:30", "15:40"]);
  const day = timeTicks(buckets(end, 86_400, 3600), 3600);
  assert.deepEqual(day.ticks.map(day.label), ["16:00", "20:00", "Nov 27", "04:00", "08:00", "12:00"]);
  const week = timeTicks(buckets(end, 7 * 86_400, 3 * 3600), 3 * 3600);
  assert.deepEqual(week.ticks.map(week.label), ["Nov 21", "Nov 22", "Nov 23", "Nov 24", "Nov 25", "Nov 26", "Nov 27"]);
  const month = timeTicks(buckets(end, 30 * 86_400, 12 * 3600), 12 * 3600);
  assert.deepEqual(month.ticks.map(month.label), ["Nov 2", "Nov 9", "Nov 16", "Nov 23"], "weeks, on Mondays");
  for (const t of [hour, day, week, month]) assert.ok(t.ticks.length <= 7);
  // A mark falls in the bucket it labels (here the buckets start on the marks themselves).
  assert.deepEqual(hour.ticks.map(localOf), hour.ticks.map(hour.label));
});

test("time ticks: no mark on the last bucket, so none is cut at the edge or repeats the first a day later", () => {
  const day = timeTicks(buckets(at("2026-11-27T16:03:00"), 86_400, 3600), 3600);
  const labels = day.ticks.map(day.label);
  assert.deepEqual(labels, ["16:00", "20:00", "Nov 27", "04:00", "08:00", "12:00"]);
  assert.equal(new Set(labels).size, labels.length);
});

test("time ticks: the same range gives the same marks whatever the chart, and none for no buckets", () => {
  const end = at("2026-11-27T09:17:00");
  const a = timeTicks(buckets(end, 86_400, 3600), 3600);
  const b = timeTicks(buckets(end, 86_400, 3600), 3600);
  assert.deepEqual(a.ticks, b.ticks);
  assert.equal(a.label("not a bucket"), "");
  assert.deepEqual(timeTicks([], 3600).ticks, []);
});

test("time ticks: in a zone half an hour off UTC, each mark labels the bucket it falls in", () => {
  process.env.TZ = "Asia/Kolkata";
  try {
    const list = buckets(at("2026-11-27T15:43:00"), 86_400, 3600);
    const day = timeTicks(list, 3600);
    assert.equal(day.label(day.ticks[0]), "16:00");
    assert.equal(localOf(day.ticks[0]), "15:30", "the bucket from 15:30 holds 16:00");
    assert.ok(day.ticks.length <= 7);
  } finally {
    process.env.TZ = "Europe/Berlin";
  }
});
