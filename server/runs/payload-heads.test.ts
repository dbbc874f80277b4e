import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { escapeText } from "../db/storable";
import { withTestDatabases } from "../db/test-databases";
import { runPayloadHeads } from "./payload-heads";
import { seedProject, seedRun, type SeededRun } from "./test-seed";

const ws = randomUUID();

withTestDatabases("payload heads", (open) => {
  let db: Sql;
  let small: SeededRun;
  let big: SeededRun;

  before(async () => {
    db = (await open()).sql;
    const project = await seedProject(db, ws);
    small = await seedRun(db, ws, project, { inputs: { q: escapeText("a\u0000b") }, outputs: { a: 1 } });
    big = await seedRun(db, ws, project, { inputs: { text: "x".repeat(5000) } });
  });

  test("a payload that fits comes whole, a long one as its first characters and its length; no outputs is null", async () => {
    const heads = await runPayloadHeads(db, ws, [small.id, big.id, "not-a-uuid"], 100);
    assert.deepEqual(heads.get(small.id), { inputs: { whole: { q: "a\u0000b" } }, outputs: { whole: { a: 1 } } });
    const cut = heads.get(big.id)!;
    assert.ok("head" in cut.inputs);
    assert.equal(cut.inputs.head.length, 100);
    assert.ok(cut.inputs.head.startsWith('{"text": "xxx'));
    assert.ok(cut.inputs.chars > 5000);
    assert.deepEqual(cut.outputs, { whole: null });
    assert.equal(heads.size, 2);
  });

  test("another workspace's runs are not read", async () => {
    assert.equal((await runPayloadHeads(db, randomUUID(), [small.id], 100)).size, 0);
    assert.equal((await runPayloadHeads(db, ws, [], 100)).size, 0);
  });
});
