import { test } from "node:test";
import assert from "node:assert/strict";
import { asUuid, uuidFromOtelSpanId, uuidFromOtelTraceId, validHexId } from "./ids";

test("OTel ids become UUIDs as the langsmith SDK derives them", () => {
  assert.equal(uuidFromOtelTraceId("5B8EFFF798038103D269B633813FC60C"), "5b8efff7-9803-8103-d269-b633813fc60c");
  assert.equal(uuidFromOtelSpanId("eee19b7ec3c1b174"), "00000000-0000-0000-eee1-9b7ec3c1b174");
  assert.equal(uuidFromOtelSpanId("0000000000000001"), "00000000-0000-0000-0000-000000000001");
});

test("invalid ids: wrong length, not hex, all zero, missing", () => {
  assert.equal(validHexId("eee19b7ec3c1b174", 8), "eee19b7ec3c1b174");
  assert.equal(validHexId("EEE19B7EC3C1B174", 8), "eee19b7ec3c1b174");
  assert.equal(validHexId("eee19b7ec3c1b1", 8), null);
  assert.equal(validHexId("zzz19b7ec3c1b174", 8), null);
  assert.equal(validHexId("0000000000000000", 8), null);
  assert.equal(validHexId("", 16), null);
  assert.equal(validHexId(undefined, 16), null);
});

test("UUID attributes accept dashed and bare hex forms", () => {
  assert.equal(asUuid("0B9E1C1E-6A5D-4C53-9A55-6A3CBB3E7D01"), "0b9e1c1e-6a5d-4c53-9a55-6a3cbb3e7d01");
  assert.equal(asUuid("0b9e1c1e6a5d4c539a556a3cbb3e7d01"), "0b9e1c1e-6a5d-4c53-9a55-6a3cbb3e7d01");
  assert.equal(asUuid("not-a-uuid"), null);
  assert.equal(asUuid(42), null);
});
