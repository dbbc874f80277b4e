import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });
const lc = (cls: string, kwargs: Record<string, unknown>) => ({
  lc: 1,
  type: "constructor",
  id: ["langchain_core", "messages", cls],
  kwargs,
});

test("LangChain JS chat model run: list of lists of lc constructor messages, generations with an AIMessageChunk", () => {
  const c = llm(
    {
      messages: [
        [
          lc("SystemMessage", { content: "You are helpful.", additional_kwargs: {}, response_metadata: {} }),
          lc("HumanMessage", {
            content: [
              { type: "text", text: "What's on this picture?" },
              { type: "image_url", image_url: { url: "https://example.com/a.png" } },
            ],
            additional_kwargs: {},
            response_metadata: {},
          }),
          lc("AIMessage", {
            content: [
              { type: "text", text: "Checking." },
              { type: "tool_use", id: "toolu_9", name: "vision", input: { url: "https://example.com/a.png" } },
            ],
            tool_calls: [{ name: "vision", args: { url: "https://example.com/a.png" }, id: "toolu_9", type: "tool_call" }],
            invalid_tool_calls: [],
            additional_kwargs: {},
            response_metadata: {},
          }),
          lc("ToolMessage", { content: "a cat", tool_call_id: "toolu_9", name: "vision", additional_kwargs: {}, response_metadata: {} }),
        ],
      ],
    },
    {
      generations: [
        [
          {
            text: "A cat.",
            type: "ChatGenerationChunk",
            message: lc("AIMessageChunk", {
              content: "A cat.",
              tool_call_chunks: [],
              tool_calls: [],
              invalid_tool_calls: [],
              additional_kwargs: {},
              response_metadata: { finish_reason: "stop" },
              usage_metadata: { input_tokens: 40, output_tokens: 3, total_tokens: 43 },
              id: "chatcmpl-1",
            }),
            generationInfo: { finish_reason: "stop" },
          },
        ],
      ],
      llm_output: {},
    },
  );
  assert.equal(c.format, "langchain");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool"],
  );
  assert.deepEqual(c.input[1].blocks[1], { type: "image", source: { url: "https://example.com/a.png" } });
  // The tool_use block and the tool_calls entry are the same call: listed once.
  assert.deepEqual(c.input[2].blocks, [
    { type: "text", text: "Checking." },
    { type: "tool_call", id: "toolu_9", name: "vision", args: { url: "https://example.com/a.png" } },
  ]);
  assert.deepEqual(c.input[3], { role: "tool", name: "vision", toolCallId: "toolu_9", blocks: [{ type: "text", text: "a cat" }] });
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "A cat." }] }]);
  assert.deepEqual(c.diagnostics, []);
});

test("OpenAI-style tool calls in additional_kwargs, v1 standard blocks, invalid tool calls", () => {
  const c = llm(
    {
      messages: [
        [
          lc("HumanMessage", {
            content: [
              { type: "image", url: "https://x.example/p.jpg", mime_type: "image/jpeg" },
              { type: "file", base64: "JVBERi0=", mime_type: "application/pdf" },
            ],
          }),
          lc("AIMessage", {
            content: "",
            additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"x":1}' } }] },
          }),
          lc("ToolMessage", { content: "1", tool_call_id: "call_1" }),
          lc("AIMessage", {
            content: [{ type: "reasoning", reasoning: "think" }],
            invalid_tool_calls: [{ id: "call_bad", name: "g", args: "{oops", error: "Malformed args." }],
          }),
        ],
      ],
    },
    null,
  );
  assert.deepEqual(c.input[0].blocks, [
    { type: "image", source: { url: "https://x.example/p.jpg", mimeType: "image/jpeg" } },
    { type: "file", source: { base64: "JVBERi0=", mimeType: "application/pdf" } },
  ]);
  assert.deepEqual(c.input[1].blocks, [{ type: "tool_call", id: "call_1", name: "f", args: { x: 1 } }]);
  assert.deepEqual(c.input[3].blocks, [
    { type: "reasoning", text: "think" },
    { type: "tool_call", id: "call_bad", name: "g", args: "{oops" },
  ]);
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[0][3].kwargs.invalid_tool_calls[0]"],
  );
});

test("Python dict forms, a dangling tool_call_id, completion-model prompts and generations", () => {
  const c = llm(
    {
      messages: [
        [
          { type: "human", data: { content: "hi", additional_kwargs: {}, type: "human" } },
          { type: "ai", content: "hello", tool_calls: [] },
          { type: "tool", content: "x", tool_call_id: "call_nowhere" },
          { role: "user", content: "plain dict" },
        ],
      ],
    },
    { generations: [[{ text: "bye", message: { type: "AIMessageChunk", content: "bye" } }]] },
  );
  assert.equal(c.format, "langchain");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["user", "assistant", "tool", "user"],
  );
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "bye" }] }]);
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[0][2].tool_call_id"],
  );
  const completion = llm({ prompts: ["Once upon a time"] }, { generations: [[{ text: " there was a cat.", generationInfo: null }]] });
  assert.equal(completion.format, "langchain");
  assert.deepEqual(completion.input, [{ role: "user", blocks: [{ type: "text", text: "Once upon a time" }] }]);
  assert.deepEqual(completion.output, [{ role: "assistant", blocks: [{ type: "text", text: " there was a cat." }] }]);
});

test("a ChatMessage with an unknown role is diagnosed", () => {
  const c = llm({ messages: [[lc("ChatMessage", { content: "x", role: "narrator" })]] }, null);
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[0][0].kwargs.role"],
  );
  assert.match(c.diagnostics[0].message, /narrator/);
});
