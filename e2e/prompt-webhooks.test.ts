/**
 * Prompt webhooks through the 0.12 client's `promptWebhooks`: a receiver on loopback is told of a
 * commit pushed by the SDK and of a tag made and moved, filtered by prompt; header values never
 * come back; `test` sends a sample event; a receiver that refuses is retried (durable jobs).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { Client, Langsmith } from "langsmith";
import { chatPromptManifest } from "../server/generate/manifest";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("prompt webhooks", () => {
  let server: RunningServer;
  let sdk: Langsmith;
  let receiver: Server;
  let hookUrl: string;
  const received: { path: string; body: any; headers: Record<string, unknown> }[] = [];
  let refuse = 0;

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        if (refuse > 0) {
          refuse--;
          return res.writeHead(503).end();
        }
        received.push({ path: req.url!, body: JSON.parse(body), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1" } });
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
  });
  after(async () => {
    await server?.stop();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  test("create, list, update, delete; header values never shown again; a bad URL is a 400", async () => {
    const hook = await sdk.promptWebhooks.create({
      url: `${hookUrl}/crud`,
      headers: { authorization: "Bearer secret" },
      triggers: ["commit"],
    });
    assert.deepEqual(hook.headers, { authorization: "<redacted>" });
    assert.ok((await sdk.promptWebhooks.list()).some((h) => h.id === hook.id));
    const changed = await sdk.promptWebhooks.update(hook.id, { include_prompts: ["only-this"] });
    assert.deepEqual(changed.include_prompts, ["only-this"]);
    assert.equal((await sdk.promptWebhooks.retrieve(hook.id)).url, `${hookUrl}/crud`);
    await sdk.promptWebhooks.delete(hook.id);
    assert.equal((await call(server, "GET", `/api/v1/prompt-webhooks/${hook.id}`)).status, 404);
    assert.equal((await call(server, "POST", "/api/v1/prompt-webhooks", { url: "ftp://example.com/" })).status, 400);
  });

  test("a commit pushed by the SDK and a tag made then moved reach the webhooks that listen, with their headers", async () => {
    await sdk.promptWebhooks.create({
      url: `${hookUrl}/all`,
      headers: { "x-secret": "s3" },
      triggers: ["commit", "tag:create", "tag:update"],
    });
    await sdk.promptWebhooks.create({ url: `${hookUrl}/other`, include_prompts: ["another-prompt"] });
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const { manifest } = chatPromptManifest([{ role: "user", content: "Summarize {text}" }]);
    assert.equal((await call(server, "POST", "/repos/", { repo_handle: "summarizer", is_public: false })).status, 200);
    const first = await call(server, "POST", "/commits/-/summarizer", { manifest });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const commit = await eventually(async () => received.find((r) => r.path === "/all" && r.body.event === "commit"), 20_000);
    assert.equal(commit.headers["x-secret"], "s3");
    assert.deepEqual(
      [commit.body.prompt_name, commit.body.commit_hash, commit.body.manifest.kwargs.messages.length],
      ["summarizer", first.body.commit.commit_hash, 1],
    );
    const pulled = await client.pullPromptCommit("summarizer");
    assert.equal(pulled.commit_hash, first.body.commit.commit_hash);

    const second = await call(server, "POST", "/commits/-/summarizer", {
      manifest: chatPromptManifest([{ role: "user", content: "Shorten {text}" }]).manifest,
    });
    await call(server, "POST", "/repos/-/summarizer/tags", { tag_name: "prod", commit_id: first.body.commit.commit_hash });
    await call(server, "POST", "/repos/-/summarizer/tags", { tag_name: "prod", commit_id: second.body.commit.commit_hash });
    const tags = await eventually(async () => {
      const found = received.filter((r) => r.path === "/all" && r.body.tag_name === "prod");
      return found.length === 2 ? found : null;
    }, 20_000);
    assert.deepEqual(
      tags.map((t) => [t.body.event, t.body.commit_hash]).sort(),
      [
        ["tag:create", first.body.commit.commit_hash],
        ["tag:update", second.body.commit.commit_hash],
      ].sort(),
    );
    assert.equal(received.filter((r) => r.path === "/other").length, 0, "filtered to another prompt");
  });

  test("test sends a sample event unless the filters leave it out; a receiver that refuses first is retried", async () => {
    const payload = {
      event: "commit" as const,
      prompt_id: "p",
      prompt_name: "demo",
      commit_hash: "abc123",
      created_at: new Date().toISOString(),
      created_by: "me",
      manifest: {},
    };
    const sent = await sdk.promptWebhooks.test({ webhook: { url: `${hookUrl}/test` }, payload });
    assert.equal(sent.status, "sent");
    assert.ok(received.some((r) => r.path === "/test" && r.body.commit_hash === "abc123"));
    const skipped = await sdk.promptWebhooks.test({ webhook: { url: `${hookUrl}/test`, include_prompts: ["other"] }, payload });
    assert.equal(skipped.status, "skipped");

    refuse = 3; // the egress client's own three attempts fail; the job runs again later and gets through
    await call(server, "POST", "/commits/-/summarizer", {
      manifest: chatPromptManifest([{ role: "user", content: "Third {text}" }]).manifest,
    });
    await eventually(async () => received.filter((r) => r.path === "/all" && r.body.event === "commit").length === 3, 40_000);
    assert.equal(refuse, 0);
  });
});
