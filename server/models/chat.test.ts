import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { EgressRefused } from "../egress/http";
import { resetEnv } from "../env";
import { streamChat, UpstreamError } from "./chat";
import { startTestModelServer, type TestModelServer } from "./test-server";
import type { Connection } from "./types";

describe("streamChat against a real local model server", () => {
  let server: TestModelServer;
  const connection = (provider: Connection["provider"]): Connection => ({
    id: "c",
    name: provider,
    provider,
    baseUrl: provider === "openai" ? `${server.url}/v1` : server.url,
    apiKey: "sk-test",
    headers: { "x-extra": "1" },
    defaultModel: "m",
    requestsPerMinute: null,
  });
  before(async () => {
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
    server = await startTestModelServer();
  });
  after(async () => server.close());

  test("OpenAI-compatible: text arrives piece by piece, then usage; key and headers sent", async () => {
    const pieces: string[] = [];
    const result = await streamChat(
      connection("openai"),
      {
        model: "gpt-test",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hello there" },
        ],
        temperature: 0.2,
      },
      (t) => pieces.push(t),
    );
    assert.deepEqual(pieces, ["You ", "said: ", "hello ", "there"]);
    assert.equal(result.text, "You said: hello there");
    assert.deepEqual(result.usage, { input_tokens: 4, output_tokens: 4, total_tokens: 8 });
    assert.equal(result.finishReason, "stop");
    assert.ok(result.firstTokenAt && result.firstTokenAt >= result.startedAt && result.endedAt >= result.firstTokenAt);
    const seen = server.requests.at(-1)!;
    assert.equal(seen.path, "/v1/chat/completions");
    assert.equal(seen.headers.authorization, "Bearer sk-test");
    assert.equal(seen.headers["x-extra"], "1");
    assert.deepEqual([seen.body.stream, seen.body.stream_options, seen.body.temperature], [true, { include_usage: true }, 0.2]);
  });

  test("Anthropic Messages: system apart, max_tokens required, the same answer and usage", async () => {
    const result = await streamChat(connection("anthropic"), {
      model: "claude-test",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ],
    });
    assert.equal(result.text, "You said: hi");
    assert.deepEqual(result.usage, { input_tokens: 3, output_tokens: 3, total_tokens: 6 });
    const seen = server.requests.at(-1)!;
    assert.equal(seen.path, "/v1/messages");
    assert.equal(seen.headers["x-api-key"], "sk-test");
    assert.deepEqual(
      [seen.body.system, seen.body.max_tokens, seen.body.messages],
      ["Be brief.", 1024, [{ role: "user", content: [{ type: "text", text: "hi" }] }]],
    );
  });

  test("a 429 says when to come back; a private address is refused unless allowed", async () => {
    server.failNext(429, { retryAfter: 2 });
    await assert.rejects(
      streamChat(connection("openai"), { model: "m", messages: [{ role: "user", content: "x" }] }),
      (e: unknown) =>
        e instanceof UpstreamError && e.status === 429 && e.retryAfterSeconds === 2 && /HTTP 429: .*told to answer 429/.test(e.message),
    );
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    await assert.rejects(streamChat(connection("openai"), { model: "m", messages: [{ role: "user", content: "x" }] }), EgressRefused);
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
  });
});
