import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseFilter } from "./parse";
import { FilterSyntaxError } from "./errors";
import { compileFilter } from "./index";
import { compile } from "../../db/sql";

// Every filter the contract (§8) quotes, plus the forms the SDKs build themselves.
const VALID = [
  'eq(run_type, "llm")',
  'gt(latency, "5s")',
  "gt(latency, 10)",
  "gte(latency, '250ms')",
  "neq(error, null)",
  "eq(error, true)",
  'has(tags, "x")',
  'and(eq(metadata_key, "k"), eq(metadata_value, "v"))',
  'and(eq(metadata_key, "k"), neq(metadata_value, "v"))',
  'and(eq(input_key, "q"), eq(input_value, "hello"))',
  'and(eq(output_key, "a"), eq(output_value, "4"))',
  'and(eq(feedback_key, "correctness"), eq(feedback_score, 1))',
  'and(eq(feedback_key, "helpfulness"), gt(feedback_score, 0.5))',
  'eq(thread_id, "t-1")',
  "eq(is_root, true)",
  'eq(trace_id, "0b2d2f9a-6d1e-4a1e-9d8b-1c1f6a1a2b3c")',
  'eq(status, "success")',
  "gt(total_cost, 0.0)",
  "lte(total_tokens, 1000)",
  'has(metadata, \'{"k":"v"}\')',
  'search("text")',
  'search(name, "agent")',
  'in(run_type, ["llm", "chain"])',
  'like(name, "%Chat%")',
  'exists(metadata, "key")',
  'not(eq(name, "x"))',
  'or(eq(name, "a"), and(eq(run_type, "tool"), gt(start_time, "2024-01-01T00:00:00Z")))',
  "eq(execution_order, 1)",
  'gt(first_token_time, "1.5s")',
  'eq(name, "say \\"hi\\"")',
  "in(tags, [])",
];

const INVALID: [string, number, RegExp][] = [
  ['eq(name, "foo" x)', 15, /expected "," or "\)"|expected "\)"/],
  ["eq(name", 7, /expected "," and a value/],
  ['eq(nme, "x")', 3, /unknown field "nme"/],
  ['equals(name, "x")', 0, /unknown operator "equals"/],
  ['eq(name, "unterminated)', 9, /never closed/],
  ['and(eq(name, "a") eq(name, "b"))', 18, /expected "," or "\)" but found "eq"/],
  ['eq(name, "a"))', 13, /expected the end of the filter/],
  ["", 0, /expected an operator/],
  ['in(tags, ["a" "b"])', 14, /expected "," or "\]"/],
  ["eq(name, @)", 9, /unexpected character "@"/],
  ['gt(latency, "soon")', 12, /expected a duration/],
  ['eq(id, "not-a-uuid")', 7, /expected a UUID/],
  ['gt(start_time, "yesterday")', 15, /ISO-8601/],
  ['has(latency, "x")', 0, /has cannot be used on latency/],
];

describe("filter parser", () => {
  for (const filter of VALID) {
    test(`accepts ${filter}`, () => {
      const compiled = compile(compileFilter(filter, "r"));
      assert.ok(compiled.text.length > 0);
    });
  }
  for (const [filter, position, message] of INVALID) {
    test(`rejects ${JSON.stringify(filter)} at ${position}`, () => {
      assert.throws(
        () => compileFilter(filter, "r"),
        (error: unknown) => {
          assert.ok(error instanceof FilterSyntaxError);
          assert.equal(error.position, position);
          assert.match(error.message, new RegExp(`^Invalid filter at position ${position}: `));
          assert.match(error.message, message);
          assert.equal(error.clientStatus, 400);
          return true;
        },
      );
    });
  }

  test("builds a tree with positions", () => {
    assert.deepEqual(parseFilter("and(eq(name, 'a'), gt(latency, 2))"), {
      kind: "and",
      position: 0,
      args: [
        { kind: "compare", op: "eq", field: "name", value: "a", position: 4, valuePosition: 13 },
        { kind: "compare", op: "gt", field: "latency", value: 2, position: 19, valuePosition: 31 },
      ],
    });
  });

  test("field names may be quoted, as the SDK's own examples write them", () => {
    const same = (quoted: string, bare: string) => assert.deepEqual(compile(compileFilter(quoted, "r")), compile(compileFilter(bare, "r")));
    same('has("metadata", \'{"i": 4}\')', "has(metadata, '{\"i\": 4}')");
    same('and(eq("run_type", "llm"), gt(\'latency\', 2))', 'and(eq(run_type, "llm"), gt(latency, 2))');
    same('search("name", "agent")', 'search(name, "agent")');
    same('exists("metadata", "key")', 'exists(metadata, "key")');
    assert.deepEqual(
      parseFilter('search("agent")'),
      { kind: "search", field: null, text: "agent", position: 0 },
      "one quoted argument is still the text",
    );
    assert.throws(() => compileFilter('eq("nme", "x")', "r"), /unknown field "\\"nme\\""|unknown field/);
  });

  test("values only ever reach SQL as parameters", () => {
    const evil = "x'); DROP TABLE runs; --";
    const { text, values } = compile(
      compileFilter(`or(eq(name, ${JSON.stringify(evil)}), search(${JSON.stringify(evil)}), has(tags, ${JSON.stringify(evil)}))`, "r"),
    );
    assert.ok(!text.includes("DROP"));
    assert.ok(values.includes(evil));
  });

  test("durations: bare numbers are seconds, units scale", () => {
    const values = (f: string) => compile(compileFilter(f, "r")).values;
    assert.deepEqual(values("gt(latency, 10)"), [10_000]);
    assert.deepEqual(values('gt(latency, "250ms")'), [250]);
    assert.deepEqual(values('gt(latency, "1m")'), [60_000]);
    assert.deepEqual(values('lt(latency, "1.5s")'), [1500]);
  });
});
