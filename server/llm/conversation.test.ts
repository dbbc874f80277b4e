import { test } from "node:test";
import assert from "node:assert/strict";
import { conversationDiagnostics, toConversation } from "./conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });

test("detection: each format by its own signals, in the documented order", () => {
  const cases: [string, unknown, unknown][] = [
    ["langchain", { messages: [[{ role: "user", content: "hi" }]] }, null],
    [
      "langchain",
      {
        messages: [
          {
            lc: 1,
            type: "constructor",
            id: ["langchain_core", "messages", "HumanMessage"],
            kwargs: { content: [{ type: "tool_use", id: "t", name: "n", input: {} }] },
          },
        ],
      },
      null,
    ],
    ["gemini", { model: "gemini-2.5-pro", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, null],
    [
      "openai-responses",
      { model: "gpt-4.1", input: "hi" },
      { object: "response", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "yo" }] }] },
    ],
    ["anthropic", { model: "claude-sonnet-4-5", system: "s", messages: [{ role: "user", content: "hi" }] }, null],
    [
      "anthropic",
      { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "hi" }] },
      { id: "msg_1", role: "assistant", content: [{ type: "text", text: "yo" }], stop_reason: "end_turn" },
    ],
    [
      "openai",
      { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
      {
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "yo" } }],
      },
    ],
    ["native", { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }, null],
    ["other", { messages: [{ role: "user", content: "hi" }] }, ["assistant", "yo"]],
    ["unknown", { question: "hi" }, { answer: "yo" }],
  ];
  for (const [format, inputs, outputs] of cases) assert.equal(llm(inputs, outputs).format, format, JSON.stringify(inputs));
});

test("wrapGemini's processed shape (messages in, role/content/tool_calls out) reads as chat messages", () => {
  const c = llm(
    {
      model: "gemini-2.5-flash",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Map?" },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/", detail: "high" } },
          ],
        },
      ],
    },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ type: "function", function: { name: "map", arguments: '{"z":3}' } }],
      finish_reason: "STOP",
    },
  );
  assert.equal(c.format, "openai");
  assert.deepEqual(c.input[0].blocks[1], { type: "image", source: { base64: "/9j/", mimeType: "image/jpeg" } });
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "tool_call", id: null, name: "map", args: { z: 3 } }] }]);
});

test("a run in no known format is unknown with empty lists; diagnostics only for llm runs", () => {
  assert.deepEqual(llm({ prompt_template: "x", vars: { a: 1 } }, { result: 3 }), {
    format: "unknown",
    input: [],
    output: [],
    diagnostics: [],
  });
  const dangling = { messages: [{ role: "tool", tool_call_id: "x", content: "r" }] };
  assert.equal(conversationDiagnostics({ run_type: "llm", inputs: dangling, outputs: null }).length, 1);
  assert.deepEqual(conversationDiagnostics({ run_type: "chain", inputs: dangling, outputs: null }), []);
});

// A small deterministic generator of odd JSON made from the keys the adapters look at.
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}
const KEYS = [
  "messages",
  "role",
  "content",
  "type",
  "text",
  "tool_calls",
  "tool_call_id",
  "function",
  "arguments",
  "args",
  "id",
  "name",
  "parts",
  "contents",
  "candidates",
  "choices",
  "message",
  "output",
  "input",
  "instructions",
  "generations",
  "lc",
  "kwargs",
  "data",
  "source",
  "image_url",
  "url",
  "base64",
  "inlineData",
  "functionCall",
  "functionResponse",
  "system",
  "systemInstruction",
  "prompts",
  "object",
  "stop_reason",
  "tool_use_id",
  "summary",
  "call_id",
  "file",
  "input_audio",
  "outputs",
  "additional_kwargs",
  "config",
];
const STRINGS = [
  "user",
  "assistant",
  "tool",
  "system",
  "ai",
  "human",
  "model",
  "text",
  "image",
  "tool_use",
  "tool_result",
  "function_call",
  "function_call_output",
  "message",
  "reasoning",
  "constructor",
  "response",
  "chat.completion",
  '{"a":',
  "data:image/png;base64,AA",
  "",
  "x",
];
function odd(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 5 || k < 0.15) return [null, true, 0, -1.5, 1, "s"][Math.floor(r() * 6)];
  if (k < 0.35) return STRINGS[Math.floor(r() * STRINGS.length)];
  if (k < 0.6) return Array.from({ length: Math.floor(r() * 4) }, () => odd(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]] = odd(r, depth + 1);
  if (r() < 0.2) o.lc = 1;
  return o;
}

test("never throws: thousands of odd shapes, deep nesting, non-JSON values", () => {
  const r = rng(42);
  const formats = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const c = toConversation({ run_type: "llm", inputs: odd(r, 0), outputs: odd(r, 0) });
    assert.ok(Array.isArray(c.input) && Array.isArray(c.output) && Array.isArray(c.diagnostics));
    for (const m of [...c.input, ...c.output]) assert.ok(["system", "reasoning", "user", "assistant", "tool"].includes(m.role));
    formats.add(c.format);
  }
  assert.ok(formats.size >= 5, [...formats].join(","));
  let deep: unknown = { type: "text", text: "bottom" };
  for (let i = 0; i < 20000; i++) deep = { type: "document", source: { type: "content", content: [deep] } };
  const odd1 = toConversation({ run_type: "llm", inputs: { system: "s", messages: [{ role: "user", content: [deep] }] }, outputs: null });
  assert.ok(odd1.format === "anthropic" || odd1.format === "unknown");
  const cyclic: Record<string, unknown> = { role: "user" };
  cyclic.content = [cyclic];
  assert.doesNotThrow(() =>
    toConversation({
      run_type: "llm",
      inputs: { messages: [cyclic] },
      outputs: { candidates: [{ content: { parts: [{ functionResponse: { response: 10n } }] } }] },
    }),
  );
  for (const v of [undefined, null, 0, "text", [], {}, Symbol("s"), () => 1])
    assert.doesNotThrow(() => toConversation({ run_type: "llm", inputs: v, outputs: v }));
});
