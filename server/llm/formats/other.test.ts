import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });
const IN = {
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "2+2?" },
  ],
};
const ANSWER = [{ role: "assistant", blocks: [{ type: "text", text: "4" }] }];

test("custom model runs: role/content lists in, each output shape out", () => {
  const shapes: unknown[] = [
    { choices: [{ message: { role: "assistant", content: "4" } }] },
    { message: { role: "assistant", content: "4" }, usage_metadata: { input_tokens: 5, output_tokens: 1, total_tokens: 6 } },
    { role: "assistant", content: "4", usage_metadata: { input_tokens: 5, output_tokens: 1, total_tokens: 6 } },
    ["assistant", "4"],
    { outputs: ["assistant", "4"] }, // what traceable sends for a returned array
  ];
  for (const outputs of shapes) {
    const c = llm(IN, outputs);
    assert.equal(c.format, "other", JSON.stringify(outputs));
    assert.deepEqual(c.input, [
      { role: "system", blocks: [{ type: "text", text: "Be brief." }] },
      { role: "user", blocks: [{ type: "text", text: "2+2?" }] },
    ]);
    assert.deepEqual(c.output, ANSWER, JSON.stringify(outputs));
    assert.deepEqual(c.diagnostics, []);
  }
});

test("the input list may be the inputs themselves or under input; [role, content] pairs are messages", () => {
  assert.deepEqual(llm([{ role: "user", content: "hi" }], null).input, [{ role: "user", blocks: [{ type: "text", text: "hi" }] }]);
  const c = llm({ input: [["user", "hi"], { role: "assistant", content: "yo" }] }, { role: "assistant", content: "bye" });
  assert.equal(c.format, "other");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["user", "assistant"],
  );
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "bye" }] }]);
});

test("an output shape alone (inputs in no message form) still shows the answer", () => {
  const c = llm({ question: "2+2?" }, { message: { role: "assistant", content: "4" } });
  assert.equal(c.format, "other");
  assert.deepEqual(c.input, []);
  assert.deepEqual(c.output, ANSWER);
});
