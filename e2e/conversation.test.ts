import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("conversations of LLM runs sent with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
  });
  after(async () => server?.stop());

  /** createRun then updateRun, as a wrapper does; answers the conversation once the outputs are stored. */
  async function send(inputs: Record<string, unknown>, outputs: Record<string, unknown>, metadata: Record<string, unknown>) {
    const id = randomUUID();
    await client.createRun({ id, name: "llm", run_type: "llm", inputs, extra: { metadata }, project_name: "e2e-conversation" } as never);
    await client.updateRun(id, { outputs, end_time: Date.now() });
    await eventually(async () => {
      const r = await call(server, "GET", `/runs/${id}`);
      return r.status === 200 && r.body.outputs !== null;
    });
    const c = await call(server, "GET", `/runs/${id}/conversation`);
    assert.equal(c.status, 200);
    return { id, conversation: c.body };
  }
  const texts = (messages: any[]) =>
    messages.map((m) =>
      m.blocks
        .filter((b: any) => b.type === "text")
        .map((b: any) => b.text)
        .join(""),
    );

  test("OpenAI, Anthropic and native runs read back as the canonical conversation", async () => {
    const openai = await send(
      {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "2+2?" },
              { type: "image_url", image_url: { url: "https://example.com/sum.png" } },
            ],
          },
        ],
      },
      {
        id: "chatcmpl-e2e",
        object: "chat.completion",
        model: "gpt-4o-mini",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "4" } }],
        usage_metadata: { input_tokens: 20, output_tokens: 1, total_tokens: 21 },
      },
      { ls_provider: "openai", ls_model_name: "gpt-4o-mini" },
    );
    assert.equal(openai.conversation.format, "openai");
    assert.deepEqual(
      openai.conversation.input.map((m: any) => m.role),
      ["system", "user"],
    );
    assert.deepEqual(openai.conversation.input[1].blocks[1], { type: "image", source: { url: "https://example.com/sum.png" } });
    assert.deepEqual(texts(openai.conversation.output), ["4"]);

    const anthropic = await send(
      {
        model: "claude-3-5-haiku-20241022",
        max_tokens: 256,
        system: "Use tools.",
        messages: [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_e2e", name: "weather", input: { city: "Oslo" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_e2e", content: "9°C" }] },
        ],
      },
      {
        id: "msg_e2e",
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Cold.", signature: "sig" },
          { type: "text", text: "It is 9°C." },
        ],
        stop_reason: "end_turn",
      },
      { ls_provider: "anthropic", ls_model_name: "claude-3-5-haiku-20241022" },
    );
    assert.equal(anthropic.conversation.format, "anthropic");
    assert.deepEqual(
      anthropic.conversation.input.map((m: any) => m.role),
      ["system", "user", "assistant", "tool"],
    );
    assert.equal(anthropic.conversation.input[3].toolCallId, "toolu_e2e");
    assert.deepEqual(
      anthropic.conversation.output[0].blocks.map((b: any) => b.type),
      ["reasoning", "text"],
    );
    assert.deepEqual(texts(anthropic.conversation.output), ["It is 9°C."]);
    assert.deepEqual((await call(server, "GET", `/runs/${anthropic.id}`)).body.diagnostics, []);

    const native = await send(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Hi" },
              { type: "image", base64: "iVBORw0KGgo=", mime_type: "image/png" },
            ],
          },
        ],
      },
      {
        messages: [
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "Greet." },
              { type: "text", text: "Hello!" },
            ],
          },
        ],
      },
      {},
    );
    assert.equal(native.conversation.format, "native");
    assert.deepEqual(native.conversation.input[0].blocks[1], { type: "image", source: { base64: "iVBORw0KGgo=", mimeType: "image/png" } });
    assert.deepEqual(texts(native.conversation.output), ["Hello!"]);
    assert.deepEqual(native.conversation.diagnostics, []);
  });

  test("a tool message with a dangling tool_call_id is diagnosed on GET /runs/{id} and the conversation; unknown runs and ids", async () => {
    const dangling = await send(
      {
        messages: [
          { role: "user", content: [{ type: "text", text: "q" }] },
          { role: "tool", tool_call_id: "call_missing", content: [{ type: "text", text: "r" }] },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "a" }] },
      {},
    );
    const expected = [
      {
        path: "inputs.messages[1].tool_call_id",
        message: 'This tool message answers tool call "call_missing", but no earlier assistant message made a tool call with that id.',
      },
    ];
    assert.deepEqual(dangling.conversation.diagnostics, expected);
    assert.deepEqual((await call(server, "GET", `/runs/${dangling.id}`)).body.diagnostics, expected);

    const custom = await send({ query: "free text" }, { answer: 42 }, {});
    assert.deepEqual(custom.conversation, { format: "unknown", input: [], output: [], diagnostics: [] });

    assert.equal((await call(server, "GET", `/runs/${randomUUID()}/conversation`)).status, 404);
    const noKey = await fetch(`${server.url}/runs/${dangling.id}/conversation`);
    assert.equal(noKey.status, 401);
  });
});
