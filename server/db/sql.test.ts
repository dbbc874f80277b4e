import { test } from "node:test";
import assert from "node:assert/strict";
import { compile, join, raw, sql } from "./sql";

test("nested fragments renumber their parameters", () => {
  const where = join([sql`a = ${1}`, sql`b = ${"x"}`], " and ");
  const q = compile(sql`select * from ${raw("runs")} where ${where} limit ${10}`);
  assert.equal(q.text, "select * from runs where a = $1 and b = $2 limit $3");
  assert.deepEqual(q.values, [1, "x", 10]);
});

test("an empty join leaves no text", () => {
  assert.deepEqual(compile(sql`x${join([])}y`), { text: "xy", values: [] });
});
