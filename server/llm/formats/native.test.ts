import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });

test("the contract's typical layouts: text, reasoning, tool call and result, server tool call and result", () => {
  const c = llm(
    {
      messages: [
        { role: "system", content: [{ type: "text", text: "You are a weather bot." }] },
        { role: "user", content: [{ type: "text", text: "Weather in SF?", annotations: [] }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Call the tool.", extras: { signature: "abc" } },
            { type: "tool_call", name: "get_weather", args: { city: "SF" }, id: "call_1" },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "18°C, fog" }] },
        {
          role: "assistant",
          content: [{ type: "text", text: "18°C and foggy." }],
          usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        },
      ],
    },
    {
      messages: [
        {
          role: "assistant",
          content: [
            { type: "server_tool_call", id: "srv_1", name: "web_search", args: { query: "sf fog" } },
            { type: "server_tool_result", tool_call_id: "srv_1", status: "success", output: { hits: 3 } },
            { type: "text", text: "Fog is usual." },
          ],
        },
      ],
    },
  );
  assert.equal(c.format, "native");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool", "assistant"],
  );
  assert.deepEqual(c.input[2].blocks, [
    { type: "reasoning", text: "Call the tool." },
    { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "SF" } },
  ]);
  assert.equal(c.input[3].toolCallId, "call_1");
  assert.deepEqual(c.output[0].blocks, [
    { type: "server_tool_call", id: "srv_1", name: "web_search", args: { query: "sf fog" } },
    { type: "server_tool_result", toolCallId: "srv_1", output: { hits: 3 }, status: "success" },
    { type: "text", text: "Fog is usual." },
  ]);
  assert.deepEqual(c.diagnostics, []);
});

test("media by url, base64 or id with mime_type, the reasoning role, LangChain-style assistant tool_calls, JS spellings", () => {
  const c = llm(
    {
      messages: [
        {
          role: "user",
          content: [
            { type: "image", url: "https://example.com/a.png", mime_type: "image/png" },
            { type: "image", base64: "iVBORw0KGgo=", mime_type: "image/png" },
            { type: "file", id: "file-123", mime_type: "application/pdf" },
            { type: "audio", base64: "UklGRg==", mime_type: "audio/wav" },
            { type: "video", url: "https://example.com/v.mp4", mime_type: "video/mp4" },
            { type: "image", data: "R0lGOD", mimeType: "image/gif" },
            { type: "file", fileId: "file-js", mimeType: "text/csv" },
            { type: "image", source_type: "base64", data: "AAA", mime_type: "image/webp" },
          ],
        },
        { role: "reasoning", content: [{ type: "text", text: "Thinking out loud." }] },
        { role: "assistant", content: "Calling.", tool_calls: [{ id: "c9", name: "look", args: { q: 1 } }] },
        { role: "tool", tool_call_id: "c9", content: "done" },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "ok" }] },
  );
  assert.equal(c.format, "native");
  assert.deepEqual(
    c.input[0].blocks.map((b) => ("source" in b ? b.source : null)),
    [
      { url: "https://example.com/a.png", mimeType: "image/png" },
      { base64: "iVBORw0KGgo=", mimeType: "image/png" },
      { id: "file-123", mimeType: "application/pdf" },
      { base64: "UklGRg==", mimeType: "audio/wav" },
      { url: "https://example.com/v.mp4", mimeType: "video/mp4" },
      { base64: "R0lGOD", mimeType: "image/gif" },
      { id: "file-js", mimeType: "text/csv" },
      { base64: "AAA", mimeType: "image/webp" },
    ],
  );
  assert.deepEqual(
    c.input[0].blocks.map((b) => b.type),
    ["image", "image", "file", "audio", "video", "image", "file", "image"],
  );
  assert.equal(c.input[1].role, "reasoning");
  assert.deepEqual(c.input[2].blocks, [
    { type: "text", text: "Calling." },
    { type: "tool_call", id: "c9", name: "look", args: { q: 1 } },
  ]);
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "ok" }] }]);
  assert.deepEqual(c.diagnostics, []);
});

test("diagnostics: dangling tool_call_id, media with no source, unknown role, tool_call_id on a user message", () => {
  const c = llm(
    {
      messages: [
        {
          role: "user",
          content: [
            { type: "image", mime_type: "image/png" },
            { type: "text", text: "see" },
          ],
        },
        { role: "assistant", content: [{ type: "tool_call", id: "call_a", name: "t", args: {} }] },
        { role: "tool", tool_call_id: "call_b", content: [{ type: "text", text: "?" }] },
        { role: "narrator", content: [{ type: "text", text: "meanwhile" }] },
        { role: "user", tool_call_id: "call_a", content: [{ type: "text", text: "x" }] },
      ],
    },
    null,
  );
  assert.equal(c.format, "native");
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[0].content[0]", "inputs.messages[3].role", "inputs.messages[4].tool_call_id", "inputs.messages[2].tool_call_id"],
  );
  assert.match(c.diagnostics[0].message, /image block has neither url, base64 nor id/);
  assert.match(c.diagnostics[1].message, /Unknown role "narrator"/);
  assert.match(c.diagnostics[3].message, /call_b/);
  assert.equal(c.input[3].role, "user");
  assert.equal(c.input[4].toolCallId, undefined);
});

test("a tool message in the outputs may answer a call made in the inputs; parts of unknown type are kept as json", () => {
  const c = llm(
    { messages: [{ role: "assistant", content: [{ type: "tool_call", id: "k", name: "n", args: {} }] }] },
    { messages: [{ role: "tool", tool_call_id: "k", content: [{ type: "hologram", z: 1 }] }] },
  );
  assert.deepEqual(c.diagnostics, []);
  assert.deepEqual(c.output[0].blocks, [{ type: "json", value: { type: "hologram", z: 1 } }]);
});
