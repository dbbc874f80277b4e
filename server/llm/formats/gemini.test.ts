import { test } from "node:test";
import assert from "node:assert/strict";
import { toConversation } from "../conversation";

const llm = (inputs: unknown, outputs: unknown) => toConversation({ run_type: "llm", inputs, outputs });

test("generateContent: system instruction in config, inline and file data, function call and response, candidates with thoughts", () => {
  const c = llm(
    {
      model: "gemini-2.5-flash",
      config: { systemInstruction: "You are a travel agent.", temperature: 0.2 },
      contents: [
        {
          role: "user",
          parts: [
            { text: "Where is this, and what's the weather?" },
            { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } },
            { fileData: { fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc", mimeType: "video/mp4" } },
            { inline_data: { mime_type: "application/pdf", data: "JVBERi0=" } },
          ],
        },
        { role: "model", parts: [{ functionCall: { id: "fc-1", name: "get_weather", args: { city: "Lisbon" } } }] },
        { role: "user", parts: [{ functionResponse: { id: "fc-1", name: "get_weather", response: { temp: 24 } } }] },
      ],
    },
    {
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "The photo shows Lisbon.", thought: true },
              { text: "It's Lisbon, 24°C." },
              { executableCode: { language: "PYTHON", code: "print(1)" } },
              { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } },
            ],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 20, totalTokenCount: 320 },
    },
  );
  assert.equal(c.format, "gemini");
  assert.deepEqual(
    c.input.map((m) => m.role),
    ["system", "user", "assistant", "tool"],
  );
  assert.deepEqual(c.input[0].blocks, [{ type: "text", text: "You are a travel agent." }]);
  assert.deepEqual(c.input[1].blocks, [
    { type: "text", text: "Where is this, and what's the weather?" },
    { type: "image", source: { base64: "/9j/4AAQ", mimeType: "image/jpeg" } },
    { type: "video", source: { url: "https://generativelanguage.googleapis.com/v1beta/files/abc", mimeType: "video/mp4" } },
    { type: "file", source: { base64: "JVBERi0=", mimeType: "application/pdf" } },
  ]);
  assert.deepEqual(c.input[2].blocks, [{ type: "tool_call", id: "fc-1", name: "get_weather", args: { city: "Lisbon" } }]);
  assert.deepEqual(c.input[3], { role: "tool", name: "get_weather", toolCallId: "fc-1", blocks: [{ type: "text", text: '{"temp":24}' }] });
  assert.deepEqual(c.output[0].role, "assistant");
  assert.deepEqual(c.output[0].blocks, [
    { type: "reasoning", text: "The photo shows Lisbon." },
    { type: "text", text: "It's Lisbon, 24°C." },
    { type: "server_tool_call", id: null, name: "code_execution", args: { language: "PYTHON", code: "print(1)" } },
    { type: "server_tool_result", toolCallId: null, output: { outcome: "OUTCOME_OK", output: "1" }, status: "success" },
  ]);
  assert.deepEqual(c.diagnostics, []);
});

test("contents as a string and as bare parts; systemInstruction as Content; function calls without ids link by nothing", () => {
  const s = llm(
    { model: "gemini-2.0-flash", contents: "Hello" },
    { candidates: [{ content: { role: "model", parts: [{ text: "Hi!" }] } }] },
  );
  assert.equal(s.format, "gemini");
  assert.deepEqual(s.input, [{ role: "user", blocks: [{ type: "text", text: "Hello" }] }]);
  assert.deepEqual(s.output, [{ role: "assistant", blocks: [{ type: "text", text: "Hi!" }] }]);
  const p = llm(
    {
      systemInstruction: { parts: [{ text: "Be terse." }] },
      contents: ["Describe", { inlineData: { mimeType: "audio/mp3", data: "SUQz" } }],
    },
    null,
  );
  assert.deepEqual(
    p.input.map((m) => m.role),
    ["system", "user"],
  );
  assert.deepEqual(p.input[1].blocks, [
    { type: "text", text: "Describe" },
    { type: "audio", source: { base64: "SUQz", mimeType: "audio/mp3" } },
  ]);
  const noIds = llm(
    {
      contents: [
        { role: "model", parts: [{ functionCall: { name: "f", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { name: "f", response: { ok: true } } }] },
      ],
    },
    null,
  );
  assert.equal(noIds.input[1].role, "tool");
  assert.equal(noIds.input[1].toolCallId, undefined);
  assert.deepEqual(noIds.diagnostics, []);
});

test("diagnostics: inline data without bytes, a function response to an unknown id", () => {
  const c = llm(
    {
      contents: [
        { role: "user", parts: [{ inlineData: { mimeType: "image/png" } }] },
        { role: "user", parts: [{ functionResponse: { id: "nope", name: "f", response: {} } }] },
      ],
    },
    null,
  );
  assert.deepEqual(
    c.diagnostics.map((d) => d.path),
    ["inputs.contents[0].parts[0].inlineData", "inputs.contents[1].parts[0].functionResponse.id"],
  );
});
