import { test } from "node:test";
import assert from "node:assert/strict";
import { dottedStamp, formatMicros, isoFromDb, parseInstant } from "./time";

test("every timestamp form the SDKs send", () => {
  const z = parseInstant("2024-05-01T12:00:00.123001Z");
  assert.equal(formatMicros(z!), "2024-05-01T12:00:00.123001Z");
  assert.equal(parseInstant("2024-05-01T14:00:00.123001+02:00"), z);
  assert.equal(parseInstant("2024-05-01T12:00:00.123001"), z);
  assert.equal(formatMicros(parseInstant(1714564800123)!), "2024-05-01T12:00:00.123000Z");
  assert.equal(formatMicros(parseInstant(1714564800)!), "2024-05-01T12:00:00.000000Z");
  assert.equal(parseInstant("yesterday"), null);
});

test("dotted_order stamps and database text", () => {
  assert.equal(dottedStamp(parseInstant("2023-09-14T22:31:55.647001Z")!), "20230914T223155647001Z");
  assert.equal(isoFromDb("2024-05-01 12:00:00.5+00"), "2024-05-01T12:00:00.500000Z");
});
