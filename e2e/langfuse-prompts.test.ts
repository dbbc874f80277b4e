import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Langfuse } from "langfuse";
import { Client } from "langsmith";
import { call } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const basic = (publicKey: string, secretKey: string) => `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`;

describe("Langfuse prompt management with the real langfuse SDK (v3), backed by the prompt repository", () => {
  let server: RunningServer;
  let sdk: Langfuse;
  before(async () => {
    server = await startServer();
    sdk = new Langfuse({ publicKey: "pk-lf-prompts", secretKey: server.apiKey, baseUrl: server.url, fetchRetryCount: 0 });
  });
  after(async () => {
    await sdk?.shutdownAsync();
    await server?.stop();
  });

  test("createPrompt (text and chat, labels, config), getPrompt by default label, version and label, compile", async () => {
    const v1 = await sdk.createPrompt({
      name: "support-greeting",
      prompt: "Hello {{name}}, how can I help with {{topic}}?",
      labels: ["production"],
      config: { model: "gpt-4o-mini", temperature: 0.3 },
      tags: ["support"],
      commitMessage: "first version",
    });
    assert.equal(v1.version, 1);
    assert.deepEqual(v1.labels.sort(), ["latest", "production"]);
    const v2 = await sdk.createPrompt({ name: "support-greeting", prompt: "Hi {{name}}! Topic: {{topic}}.", labels: ["staging"] });
    assert.equal(v2.version, 2);
    assert.deepEqual(v2.labels.sort(), ["latest", "staging"]);

    const production = await sdk.getPrompt("support-greeting", undefined, { cacheTtlSeconds: 0 });
    assert.equal(production.version, 1, "no label means production");
    assert.deepEqual(production.config, { model: "gpt-4o-mini", temperature: 0.3 });
    assert.equal(production.compile({ name: "Ada", topic: "billing" }), "Hello Ada, how can I help with billing?");
    assert.deepEqual(production.tags, ["support"]);
    assert.equal(production.commitMessage, "first version");
    const byVersion = await sdk.getPrompt("support-greeting", 2, { cacheTtlSeconds: 0 });
    assert.equal(byVersion.compile({ name: "Ada", topic: "billing" }), "Hi Ada! Topic: billing.");
    const staging = await sdk.getPrompt("support-greeting", undefined, { label: "staging", cacheTtlSeconds: 0 });
    assert.equal(staging.version, 2);
    const latest = await sdk.getPrompt("support-greeting", undefined, { label: "latest", cacheTtlSeconds: 0 });
    assert.equal(latest.version, 2);

    const chat = await sdk.createPrompt({
      name: "support-chat",
      type: "chat",
      prompt: [
        { role: "system", content: "You are a {{tone}} support agent." },
        { type: "placeholder", name: "history" },
        { role: "user", content: "{{question}}" },
      ],
      labels: ["production"],
    });
    assert.equal(chat.type, "chat");
    const fetched = await sdk.getPrompt("support-chat", undefined, { type: "chat", cacheTtlSeconds: 0 });
    assert.deepEqual(
      fetched.compile({ tone: "friendly", question: "Where is my order?" }, { history: [{ role: "assistant", content: "Hi!" }] }),
      [
        { role: "system", content: "You are a friendly support agent." },
        { role: "assistant", content: "Hi!" },
        { role: "user", content: "Where is my order?" },
      ],
    );

    // The same prompt is a hub prompt: the langsmith client reads its versions as commits.
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const commit = await client.pullPromptCommit("support-greeting:staging");
    assert.equal((commit.manifest as { kwargs: { template: string } }).kwargs.template, "Hi {{name}}! Topic: {{topic}}.");

    const list = await call(server, "GET", "/api/public/v2/prompts?label=production", undefined, {
      "x-api-key": "",
      authorization: basic("pk-lf-prompts", server.apiKey),
    });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((p: { name: string; versions: number[] }) => [p.name, p.versions]),
      [
        ["support-chat", [1]],
        ["support-greeting", [1, 2]],
      ],
    );
  });

  test("missing prompts and labels are 404, bad input 400, and a viewer key may read but not write", async () => {
    const auth = (secret: string) => ({ "x-api-key": "", authorization: basic("pk-lf-prompts", secret) });
    await sdk.createPrompt({ name: "viewer-check", prompt: "x", labels: ["production"] });
    assert.equal((await call(server, "GET", "/api/public/v2/prompts/no-such-prompt", undefined, auth(server.apiKey))).status, 404);
    const noLabel = await call(server, "GET", "/api/public/v2/prompts/viewer-check?label=gone", undefined, auth(server.apiKey));
    assert.equal(noLabel.status, 404);
    assert.match(noLabel.body.detail, /no label "gone"/);
    const bad = await call(server, "POST", "/api/public/v2/prompts", { name: "a/b", prompt: "x" }, auth(server.apiKey));
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /Invalid prompt name/);

    const key = await call(server, "POST", "/api-key", { kind: "service", role: "viewer", description: "viewer" });
    const viewer = key.body.key as string;
    assert.equal((await call(server, "GET", "/api/public/v2/prompts/viewer-check", undefined, auth(viewer))).status, 200);
    const write = await call(server, "POST", "/api/public/v2/prompts", { name: "viewer-check", prompt: "y" }, auth(viewer));
    assert.equal(write.status, 403);
  });
});
