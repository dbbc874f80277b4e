import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });

test("messages as wrapAnthropic sends them: system blocks, media, tool_use and tool_result split into tool messages, thinking", () => {
  const c = llm(
    {
      model: "claude-sonnet-4-5-20250929",
      max_tokens: 1024,
      system: [{ type: "text", text: "You are a careful analyst.", cache_control: { type: "ephemeral" } }],
      tools: [{ name: "get_stock", description: "Price", input_schema: { type: "object", properties: { ticker: { type: "string" } } } }],
      thinking: { type: "enabled", budget_tokens: 2000 },
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
            { type: "image", source: { type: "url", url: "https://example.com/chart.png" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" }, title: "10-K" },
            { type: "document", source: { type: "text", media_type: "text/plain", data: "Plain notes" } },
            { type: "text", text: "Compare ACME to the chart." },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "I need the price.", signature: "EqQBCgIYAhIM" },
            { type: "redacted_thinking", data: "EmwKAhgBEgy3" },
            { type: "text", text: "Let me check." },
            { type: "tool_use", id: "toolu_01A", name: "get_stock", input: { ticker: "ACME" } },
            { type: "tool_use", id: "toolu_01B", name: "get_stock", input: { ticker: "EMCA" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_01A", content: "42.10" },
            { type: "tool_result", tool_use_id: "toolu_01B", is_error: true, content: [{ type: "text", text: "unknown ticker" }] },
            { type: "text", text: "Go on." },
          ],
        },
      ],
    },
    {
      id: "msg_01XFDUDYJgAACzvnptvVoYEL",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [{ type: "text", text: "ACME trades at $42.10." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage_metadata: { input_tokens: 2095, output_tokens: 503, total_tokens: 2598 },
    },
  );
  assert.equal(c.format, "anthropic");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool", "tool", "user"],
  );
  assert.deepEqual(c.input[0].blocks, [{ type: "text", text: "You are a careful analyst." }]);
  assert.deepEqual(c.input[1].blocks, [
    { type: "image", source: { base64: "/9j/4AAQ", mimeType: "image/jpeg" } },
    { type: "image", source: { url: "https://example.com/chart.png" } },
    { type: "file", source: { base64: "JVBERi0x", mimeType: "application/pdf" }, name: "10-K" },
    { type: "text", text: "Plain notes" },
    { type: "text", text: "Compare ACME to the chart." },
  ]);
  assert.deepEqual(c.input[2].blocks, [
    { type: "reasoning", text: "I need the price." },
    { type: "reasoning", text: "[redacted thinking]" },
    { type: "text", text: "Let me check." },
    { type: "tool_call", id: "toolu_01A", name: "get_stock", args: { ticker: "ACME" } },
    { type: "tool_call", id: "toolu_01B", name: "get_stock", args: { ticker: "EMCA" } },
  ]);
  assert.deepEqual(c.input[3], { role: "tool", toolCallId: "toolu_01A", blocks: [{ type: "text", text: "42.10" }] });
  assert.deepEqual(c.input[4], { role: "tool", toolCallId: "toolu_01B", blocks: [{ type: "text", text: "unknown ticker" }] });
  assert.deepEqual(c.input[5].blocks, [{ type: "text", text: "Go on." }]);
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "ACME trades at $42.10." }] }]);
  assert.deepEqual(c.diagnostics, []);
});

test("server tools: server_tool_use and web_search_tool_result in the output message", () => {
  const c = llm(
    { model: "claude-opus-4-1", max_tokens: 512, system: "Search when unsure.", messages: [{ role: "user", content: "Latest Node LTS?" }] },
    {
      type: "message",
      role: "assistant",
      content: [
        { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "node lts" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_01",
          content: [{ type: "web_search_result", url: "https://nodejs.org", title: "Node.js", encrypted_content: "Eq", page_age: null }],
        },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_02",
          content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
        },
        { type: "text", text: "Node 24.", citations: [{ type: "web_search_result_location", url: "https://nodejs.org" }] },
      ],
      stop_reason: "end_turn",
    },
  );
  assert.equal(c.format, "anthropic");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user"],
  );
  const blocks = c.output[0].blocks;
  assert.deepEqual(
    blocks.map((b) => b.type),
    ["server_tool_call", "server_tool_result", "server_tool_result", "text"],
  );
  assert.deepEqual(blocks[0], { type: "server_tool_call", id: "srvtoolu_01", name: "web_search", args: { query: "node lts" } });
  assert.equal(blocks[1].type === "server_tool_result" && blocks[1].toolCallId, "srvtoolu_01");
  assert.equal(blocks[1].type === "server_tool_result" && blocks[1].status, "success");
  assert.equal(blocks[2].type === "server_tool_result" && blocks[2].status, "error");
});

test("diagnostics: a tool_result for an unknown tool_use id, an image source without data", () => {
  const c = llm(
    {
      model: "claude-3-5-haiku-latest",
      max_tokens: 100,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png" } },
            { type: "text", text: "hi" },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_ok", name: "t", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_missing", content: "?" }] },
      ],
    },
    null,
  );
  assert.equal(c.format, "anthropic");
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[0].content[0].source", "inputs.messages[2].content[0].tool_use_id"],
  );
  assert.match(c.diagnostics[0].message, /neither url, base64 nor id/);
  assert.match(c.diagnostics[1].message, /toolu_missing/);
});
