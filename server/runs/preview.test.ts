import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PREVIEW_CHARS, previewOf } from "./preview";

test("previews: the last user message and the final answer of a conversation", () => {
  const inputs = {
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Where is\n my order?" },
    ],
  };
  assert.equal(previewOf(inputs, "input"), "Where is my order?");
  assert.equal(previewOf({ choices: [{ message: { role: "assistant", content: "It shipped." } }] }, "output"), "It shipped.");
  const toolCall = {
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "track", arguments: '{"order":1}' } }],
        },
      },
    ],
  };
  assert.match(previewOf(toolCall, "output") ?? "", /^track\(/);
  assert.equal(
    previewOf({ messages: [{ role: "assistant", content: "Of course." }] }, "output"),
    "Of course.",
    "a chain's own messages shape",
  );
});

test("previews: a speaking key as itself, anything else as compact JSON, always one bounded line", () => {
  assert.equal(previewOf({ question: "What is 2+2?", k: 3 }, "input"), "What is 2+2?");
  assert.equal(previewOf({ answer: "4" }, "output"), "4");
  assert.equal(previewOf({ a: 1, b: [true, null] }, "input"), '{"a": 1, "b": [true, null]}');
  assert.equal(previewOf({}, "input"), null);
  assert.equal(previewOf(null, "output"), null);
  const long = previewOf({ x: "y".repeat(100_000), z: Array.from({ length: 10_000 }, (_, i) => i) }, "input")!;
  assert.ok(long.length <= PREVIEW_CHARS && long.endsWith("…"));
});

test("property: a long text's preview is its whole text collapsed onto one line and cut", () => {
  const whole = (text: string) => {
    const line = text.replace(/\s+/g, " ").trim();
    return (line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line) || null;
  };
  const spaced = fc.array(fc.oneof(fc.constantFrom(" ", "\n\t ", "   \n", "word", "é", "😀"), fc.string()), { maxLength: 400 });
  fc.assert(
    fc.property(spaced, (pieces) => {
      const text = pieces.join("");
      assert.equal(previewOf({ question: text }, "input"), whole(text));
    }),
    { numRuns: 500 },
  );
  assert.equal(previewOf({ question: `${" \n".repeat(300)}short` }, "input"), "short");
});
