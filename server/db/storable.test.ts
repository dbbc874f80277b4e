import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  escapeText,
  fromStorage,
  parseKeepingBytes,
  parseKeepingText,
  storableJson,
  storableRecords,
  storedLength,
  truncateStored,
  unescapeText,
} from "./storable";

test("NUL, lone surrogates and the escape character itself round-trip; other text is untouched", () => {
  for (const text of ["a\u0000b", "\ud800", "x\udc00y", "\ue000", "\ue0000", "emoji 😀 ok", "plain"]) {
    assert.equal(unescapeText(escapeText(text)), text, JSON.stringify(text));
  }
  assert.equal(escapeText("plain 😀"), "plain 😀");
  // eslint-disable-next-line no-control-regex -- looking for U+0000 on purpose
  assert.ok(!/[\u0000\ud800-\udfff]/.test(escapeText("a\u0000\ud800").replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")));
});

test("JSON with such strings, in values and keys, is stored escaped and read back as sent", () => {
  const value = { "k\u0000ey": ["v\u0000", { nested: "\udfff" }], fine: "text", n: 1 };
  const stored = storableJson(value);
  assert.ok(!stored.includes("\\u0000") && !/\\ud[89a-f]/i.test(stored), stored);
  assert.deepEqual(fromStorage(JSON.parse(stored)), value);
  const plain = { a: "b", c: [1, 2] };
  assert.equal(storableJson(plain), JSON.stringify(plain));
  assert.equal(fromStorage(plain), plain, "unchanged values are returned as they are");
});

/** Any UTF-16 code units: NUL, lone surrogates and U+E000 included. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
    fc.constantFrom("\u0000", "\ue000", "\ud800"),
  ),
});

test("property: any JSON value round-trips through storage", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), anyText, (value, text) => {
      const doc = { value, text, [text]: text };
      assert.deepEqual(fromStorage(JSON.parse(storableJson(doc))), JSON.parse(JSON.stringify(doc)));
      assert.equal(unescapeText(escapeText(text)), text);
    }),
    { numRuns: 300 },
  );
});

test("a text is counted and cut as stored, escapes included, never splitting a surrogate pair", () => {
  assert.equal(storedLength("a\u0000\ud800"), 1 + 2 + 6);
  assert.equal(truncateStored("ab", 5), "ab");
  assert.equal(truncateStored("\u0000".repeat(10), 5), "\u0000\u0000");
  assert.equal(truncateStored(`${"x".repeat(4)}😀`, 5), "xxxx");
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.integer({ min: 0, max: 30 }), (text, limit) => {
      const cut = truncateStored(text, limit);
      assert.ok(text.startsWith(cut) && storedLength(cut) <= limit);
      assert.ok(
        cut.length === text.length ||
          storedLength(text.slice(0, cut.length + 1)) > limit ||
          /[\ud800-\udbff]$/.test(text.slice(0, cut.length + 1)),
      );
    }),
    { numRuns: 300 },
  );
});

const stored = (records: Record<string, unknown>[]) => storableRecords(records).text();
const parsed = (text: string) => parseKeepingBytes(Buffer.from(text));

test("records splice the bytes a value was parsed from, unless they spell what storage escapes", () => {
  const sent = '{"n": 1.50, "big": 12345678901234567890, "s": "caf\\u00e9 😀 …"}';
  assert.equal(
    stored([
      { id: "a", inputs: parsed(sent), outputs: { plain: true }, error: null },
      { id: "b", outputs: parsed("[]"), inputs: parsed(sent) },
    ]),
    `[{"id":"a","outputs":{"plain":true},"error":null,"inputs":${sent}},{"id":"b","outputs":[],"inputs":${sent}}]`,
  );
  assert.equal(stored([{ inputs: parsed(sent) }]), `[{"inputs":${sent}}]`);
  for (const text of ['{"a": "\\u0000"}', '{"a": "\\uE000"}', '{"a": "\ue000"}', '["\\ud800"]', '["\\uD83D\\uDE00"]']) {
    const value = parsed(text);
    assert.equal(stored([{ id: "b", inputs: value }]), storableJson([{ id: "b", inputs: value }]), text);
  }
  // Bytes that are not UTF-8 decode to U+FFFD: what was parsed is stored, not the bytes.
  const invalid = parseKeepingBytes(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]));
  assert.equal(stored([{ id: "c", inputs: invalid }]), '[{"id":"c","inputs":["\ufffd"]}]');
});

test("records splice the text a value was parsed from (an OTLP attribute), unless it spells what storage escapes", () => {
  const sent = '{"n": 1.50, "s": "caf\\u00e9 😀 …"}';
  assert.equal(stored([{ id: "a", inputs: parseKeepingText(sent) }]), `[{"id":"a","inputs":${sent}}]`);
  for (const text of ['{"a": "\\u0000"}', '{"a": "\ue000"}', '["\\ud800"]', '["\ud800"]']) {
    const value = parseKeepingText(text);
    assert.equal(stored([{ id: "b", inputs: value }]), storableJson([{ id: "b", inputs: value }]), text);
  }
});

test("records are jsonb's binary form: version 1, then the text", () => {
  const bytes = storableRecords([{ id: "a", preview: "…" }]).toPostgres();
  assert.equal(bytes[0], 1);
  assert.equal(bytes.toString("utf8", 1), '[{"id":"a","preview":"…"}]');
});

test("property: records with parsed values store what their values serialised would", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), anyText, fc.boolean(), (value, text, spaced) => {
      const json = JSON.stringify({ value, text, [text]: text }, null, spaced ? 1 : undefined);
      const records = [{ id: "r", inputs: parsed(json), outputs: parsed(JSON.stringify([value])), n: 1 }];
      const storedText = stored(records);
      assert.ok(!/\\u0000|\\ud[89a-f]/i.test(storedText), storedText);
      assert.deepEqual(fromStorage(JSON.parse(storedText)), JSON.parse(JSON.stringify(records)));
    }),
    { numRuns: 300 },
  );
});
