import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });

test("chat completions as wrapOpenAI sends them: system, multimodal user, parallel tool calls, tool results, choices", () => {
  const c = llm(
    {
      model: "gpt-4o-2024-08-06",
      temperature: 0,
      tools: [
        { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
      ],
      messages: [
        { role: "developer", content: "You are a weather bot." },
        {
          role: "user",
          name: "ada",
          content: [
            { type: "text", text: "Weather in Paris and Oslo? See the photo and recording." },
            { type: "image_url", image_url: { url: "https://example.com/sky.jpg", detail: "low" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
            { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "report.pdf" } },
            { type: "file", file: { file_id: "file-abc123" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_paris", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_oslo", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_paris", content: '{"temp":21}' },
        { role: "tool", tool_call_id: "call_oslo", content: [{ type: "text", text: '{"temp":9}' }] },
      ],
    },
    {
      id: "chatcmpl-AbC123",
      object: "chat.completion",
      created: 1732300000,
      model: "gpt-4o-2024-08-06",
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          logprobs: null,
          message: {
            role: "assistant",
            content: "Paris is 21°C, Oslo 9°C.",
            refusal: null,
            annotations: [{ type: "url_citation", url_citation: { start_index: 0, end_index: 5, title: "t", url: "https://w.example" } }],
          },
        },
      ],
      usage_metadata: { input_tokens: 120, output_tokens: 12, total_tokens: 132 },
    },
  );
  assert.equal(c.format, "openai");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool", "tool"],
  );
  assert.equal(c.input[1].name, "ada");
  assert.deepEqual(c.input[1].blocks, [
    { type: "text", text: "Weather in Paris and Oslo? See the photo and recording." },
    { type: "image", source: { url: "https://example.com/sky.jpg" } },
    { type: "image", source: { base64: "iVBORw0KGgo=", mimeType: "image/png" } },
    { type: "audio", source: { base64: "UklGRg==", mimeType: "audio/wav" } },
    { type: "file", source: { base64: "JVBERi0=", mimeType: "application/pdf" }, name: "report.pdf" },
    { type: "file", source: { id: "file-abc123" } },
  ]);
  assert.deepEqual(c.input[2].blocks, [
    { type: "tool_call", id: "call_paris", name: "get_weather", args: { city: "Paris" } },
    { type: "tool_call", id: "call_oslo", name: "get_weather", args: { city: "Oslo" } },
  ]);
  assert.equal(c.input[3].toolCallId, "call_paris");
  assert.equal(c.input[4].toolCallId, "call_oslo");
  assert.deepEqual(c.input[4].blocks, [{ type: "text", text: '{"temp":9}' }]);
  assert.deepEqual(c.output, [{ role: "assistant", blocks: [{ type: "text", text: "Paris is 21°C, Oslo 9°C." }] }]);
  assert.deepEqual(c.diagnostics, []);
});

test("chat completions: tool calls in the output, invalid JSON arguments and a dangling tool_call_id are diagnosed", () => {
  const c = llm(
    {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "Look it up" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q": "x"' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "found" },
        { role: "tool", tool_call_id: "call_404", content: "orphan" },
      ],
    },
    {
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_2", type: "function", function: { name: "search", arguments: '{"q":"y"}' } }],
          },
        },
      ],
    },
  );
  assert.equal(c.format, "openai");
  assert.deepEqual(c.input[1].blocks, [{ type: "tool_call", id: "call_1", name: "search", args: '{"q": "x"' }]);
  assert.deepEqual(c.output[0].blocks, [{ type: "tool_call", id: "call_2", name: "search", args: { q: "y" } }]);
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.messages[1].tool_calls[0].function.arguments", "inputs.messages[3].tool_call_id"],
  );
  assert.match(c.diagnostics[0].message, /not valid JSON/);
  assert.match(c.diagnostics[1].message, /call_404/);
});

test("chat completions: deprecated function role and function_call, assistant audio, refusal", () => {
  const c = llm(
    {
      model: "gpt-3.5-turbo-0613",
      messages: [
        { role: "user", content: "Time?" },
        { role: "assistant", content: null, function_call: { name: "now", arguments: "{}" } },
        { role: "function", name: "now", content: "12:00" },
        { role: "assistant", audio: { id: "audio_abc" } },
      ],
    },
    { choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: null, refusal: "I can't help with that." } }] },
  );
  assert.equal(c.format, "openai");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["user", "assistant", "tool", "assistant"],
  );
  assert.deepEqual(c.input[1].blocks, [{ type: "tool_call", id: null, name: "now", args: {} }]);
  assert.equal(c.input[2].name, "now");
  assert.deepEqual(c.input[3].blocks, [{ type: "audio", source: { id: "audio_abc" } }]);
  assert.deepEqual(c.output[0].blocks, [{ type: "text", text: "I can't help with that." }]);
  assert.deepEqual(c.diagnostics, []);
});

test("Responses API: instructions, input items, function call and output, reasoning, web search, output message", () => {
  const c = llm(
    {
      model: "o4-mini",
      instructions: "Answer briefly.",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is in this image, and the news?" },
            { type: "input_image", image_url: "https://example.com/cat.png", detail: "auto" },
            { type: "input_file", file_id: "file-xyz", filename: "notes.pdf" },
          ],
        },
        { type: "function_call", call_id: "call_fc1", name: "lookup", arguments: '{"id":7}', id: "fc_1", status: "completed" },
        { type: "function_call_output", call_id: "call_fc1", output: '{"name":"Tom"}' },
      ],
    },
    {
      id: "resp_123",
      object: "response",
      status: "completed",
      model: "o4-mini-2025-04-16",
      output: [
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Need a search." }] },
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "cat news" } },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "A cat named Tom.", annotations: [] }],
        },
      ],
      usage_metadata: { input_tokens: 50, output_tokens: 20, total_tokens: 70 },
    },
  );
  assert.equal(c.format, "openai-responses");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool"],
  );
  assert.deepEqual(c.input[1].blocks, [
    { type: "text", text: "What is in this image, and the news?" },
    { type: "image", source: { url: "https://example.com/cat.png" } },
    { type: "file", source: { id: "file-xyz" }, name: "notes.pdf" },
  ]);
  assert.deepEqual(c.input[2].blocks, [{ type: "tool_call", id: "call_fc1", name: "lookup", args: { id: 7 } }]);
  assert.equal(c.input[3].toolCallId, "call_fc1");
  assert.equal(c.output.length, 1);
  assert.deepEqual(c.output[0].blocks, [
    { type: "reasoning", text: "Need a search." },
    { type: "server_tool_call", id: "ws_1", name: "web_search", args: { type: "search", query: "cat news" } },
    { type: "server_tool_result", toolCallId: "ws_1", output: { status: "completed" }, status: "success" },
    { type: "text", text: "A cat named Tom." },
  ]);
  assert.deepEqual(c.diagnostics, []);
});

test("Responses API: a plain string input and a function call output pointing nowhere", () => {
  const c = llm(
    { model: "gpt-4.1", input: "Tell me a joke" },
    {
      object: "response",
      output: [{ type: "function_call", call_id: "call_x", name: "joke", arguments: "not json" }],
    },
  );
  assert.equal(c.format, "openai-responses");
  assert.deepEqual(c.input, [{ role: "user", blocks: [{ type: "text", text: "Tell me a joke" }] }]);
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["outputs.output[0].arguments"],
  );
  const orphan = llm({ input: [{ type: "function_call_output", call_id: "call_gone", output: "x" }] }, null);
  assert.deepEqual(
    orphan.diagnostics.map((d) => d.path),
    ["inputs.input[0].call_id"],
  );
});
