import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFilter } from "@/server/runs/filter";
import { bucketFilter } from "./bucket-filter";

test("a clicked bucket becomes a filter the runs page accepts: its time range, group and panel", () => {
  const plain = bucketFilter("2026-11-25T10:00:00.000Z", 3600, null);
  assert.equal(plain, 'and(gte(start_time, "2026-11-25T10:00:00.000Z"), lt(start_time, "2026-11-25T11:00:00.000Z"))');
  const grouped = bucketFilter("2026-11-25T10:00:00.000Z", 300, { attribute: "model", value: 'gpt-4o "mini"' }, "eq(error, true)");
  assert.match(grouped, /eq\(model, "gpt-4o \\"mini\\""\), eq\(error, true\)\)$/);
  assert.match(bucketFilter("2026-11-25T10:00:00.000Z", 60, { attribute: "tag", value: "prod" }), /has\(tags, "prod"\)/);
  assert.match(
    bucketFilter("2026-11-25T10:00:00.000000Z", 60, { attribute: "model", value: "(none)" }),
    /eq\(model, null\)\)$/,
    "runs without a model",
  );
  for (const filter of [plain, grouped]) parseFilter(filter);
});
