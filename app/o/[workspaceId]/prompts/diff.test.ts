import assert from "node:assert/strict";
import { test } from "node:test";
import { diffLines, stableJson } from "./diff";

test("identical lines are all the same", () => {
  assert.deepEqual(
    diffLines(["a", "b"], ["a", "b"]).map((r) => r.kind),
    ["same", "same"],
  );
});

test("a changed line pairs up; additions and removals keep line numbers", () => {
  const rows = diffLines(["a", "b", "c", "d"], ["a", "B", "c", "d", "e"]);
  assert.deepEqual(
    rows.map((r) => r.kind),
    ["same", "changed", "same", "same", "added"],
  );
  assert.deepEqual(rows[1], { kind: "changed", left: "b", right: "B", leftNo: 2, rightNo: 2 });
  assert.deepEqual(rows[4], { kind: "added", left: null, right: "e", leftNo: null, rightNo: 5 });
  const removed = diffLines(["x", "y", "z"], ["x", "z"]);
  assert.deepEqual(
    removed.map((r) => r.kind),
    ["same", "removed", "same"],
  );
  assert.equal(removed[2].leftNo, 3);
  assert.equal(removed[2].rightNo, 2);
});

test("stable JSON ignores key order", () => {
  assert.equal(stableJson({ b: 1, a: { d: 2, c: 3 } }), stableJson({ a: { c: 3, d: 2 }, b: 1 }));
});
