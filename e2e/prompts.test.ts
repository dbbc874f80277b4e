import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const chat = (system: string) => ({
  lc: 1,
  type: "constructor",
  id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
  kwargs: {
    input_variables: ["question"],
    messages: [
      {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", "SystemMessagePromptTemplate"],
        kwargs: {
          prompt: {
            lc: 1,
            type: "constructor",
            id: ["langchain", "prompts", "prompt", "PromptTemplate"],
            kwargs: { template: system, input_variables: [] },
          },
        },
      },
      {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", "HumanMessagePromptTemplate"],
        kwargs: {
          prompt: {
            lc: 1,
            type: "constructor",
            id: ["langchain", "prompts", "prompt", "PromptTemplate"],
            kwargs: { template: "{question}", input_variables: ["question"] },
          },
        },
      },
    ],
  },
});

describe("prompt repository with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  let handle: string;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const settings = await call(server, "GET", "/settings");
    assert.equal(settings.status, 200);
    handle = settings.body.tenant_handle;
  });
  after(async () => server?.stop());

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

  test("GET /settings: the workspace with a handle chosen from its name; POST /settings/handle renames it", async () => {
    const { body } = await call(server, "GET", "/settings");
    assert.equal(body.id, server.workspaceId);
    assert.match(body.tenant_handle, /^[a-z0-9][a-z0-9_-]{2,}$/);
    const bad = await call(server, "POST", "/settings/handle", { tenant_handle: "Not A Handle" });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /tenant_handle/);
    const renamed = await call(server, "POST", "/settings/handle", { tenant_handle: "e2e-team" });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.tenant_handle, "e2e-team");
    handle = "e2e-team";
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey }); // the client caches /settings
  });

  test("pushPrompt twice, listCommits, an identical push is a clear 409, pull by latest and by hash", async () => {
    const name = unique("greeter");
    const url1 = await client.pushPrompt(name, { object: chat("You greet people."), description: "Greets", tags: ["chat"] });
    assert.match(url1, new RegExp(`/prompts/${name}/[0-9a-f]{8}\\?organizationId=${server.workspaceId}$`));
    const url2 = await client.pushPrompt(name, { object: chat("You greet people warmly.") });
    const commits = await collect(client.listCommits(name));
    assert.equal(commits.length, 2);
    const [second, first] = commits as unknown as { commit_hash: string; parent_commit_hash: string | null; manifest: unknown }[];
    assert.equal(second.parent_commit_hash, first.commit_hash);
    assert.ok(url2.includes(second.commit_hash.slice(0, 8)));

    await assert.rejects(client.pushPrompt(name, { object: chat("You greet people warmly.") }), (e: Error) => {
      assert.match(e.message, /\[409\]/);
      assert.match(e.message, /Nothing to commit: the manifest is identical to the latest commit/);
      return true;
    });

    const latest = await client.pullPromptCommit(name, { skipCache: true });
    assert.equal(latest.commit_hash, second.commit_hash);
    assert.equal(latest.owner, "-");
    assert.equal(latest.repo, name);
    assert.deepEqual(latest.manifest, chat("You greet people warmly."));
    assert.deepEqual(latest.examples, []);
    const byHash = await client.pullPromptCommit(`${name}:${first.commit_hash.slice(0, 8)}`, { skipCache: true });
    assert.deepEqual(byHash.manifest, chat("You greet people."));
    assert.equal(byHash.commit_hash, first.commit_hash);
    const asJson = await client._pullPrompt(name, { skipCache: true });
    assert.deepEqual(JSON.parse(asJson), chat("You greet people warmly."));
    const own = await client.pullPromptCommit(`${handle}/${name}`, { skipCache: true, dangerouslyPullPublicPrompt: true });
    assert.equal(own.commit_hash, second.commit_hash);

    const prompt = await client.getPrompt(name);
    assert.ok(prompt);
    assert.equal(prompt.full_name, `${handle}/${name}`);
    assert.equal(prompt.num_commits, 2);
    assert.equal(prompt.last_commit_hash, second.commit_hash);
    assert.equal(prompt.description, "Greets");
    assert.deepEqual(prompt.tags, ["chat"]);
  });

  test("createPrompt, createCommit with a stale parent is 409, commit tags are pullable", async () => {
    const name = unique("tagged");
    const created = await client.createPrompt(name, { description: "Tagged prompt", readme: "# Readme" });
    assert.equal(created.repo_handle, name);
    assert.equal(created.readme, "# Readme");
    await assert.rejects(client.createPrompt(name), /\[409\].*already exists/s);
    await client.createCommit(name, chat("one"), { tags: ["prod"] });
    const [first] = await collect(client.listCommits(name));
    await client.createCommit(name, chat("two"), { parentCommitHash: first.commit_hash });
    await assert.rejects(
      client.createCommit(name, chat("three"), { parentCommitHash: first.commit_hash }),
      /\[409\].*is not the latest commit/s,
    );
    const prod = await client.pullPromptCommit(`${name}:prod`, { skipCache: true });
    assert.deepEqual(prod.manifest, chat("one"));
    const missing = await call(server, "GET", `/commits/-/${name}/ffffffff`);
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /No commit or tag/);
  });

  test("listPrompts with query and visibility; updatePrompt; like and unlike; deletePrompt", async () => {
    const name = unique("translator");
    await client.pushPrompt(name, { object: chat("Translate to French."), description: "French translation" });
    await client.pushPrompt(unique("other"), { object: chat("Other.") });

    const found = await collect(client.listPrompts({ query: "translator" }));
    assert.deepEqual(
      found.map((p) => p.repo_handle),
      [name],
    );
    assert.deepEqual(
      (await collect(client.listPrompts({ query: "French translation" }))).map((p) => p.repo_handle),
      [name],
    );
    assert.equal((await collect(client.listPrompts({ query: "no-such-prompt-anywhere" }))).length, 0);
    assert.ok((await collect(client.listPrompts())).length >= 2);

    const updated = await client.updatePrompt(name, { description: "Now for German", tags: ["i18n", "de"], isPublic: true });
    assert.equal(updated.repo.description, "Now for German");
    const prompt = await client.getPrompt(name);
    assert.equal(prompt?.is_public, true);
    assert.deepEqual(prompt?.tags, ["i18n", "de"]);
    assert.deepEqual(
      (await collect(client.listPrompts({ isPublic: true }))).map((p) => p.repo_handle),
      [name],
    );

    assert.deepEqual(await client.likePrompt(name), { likes: 1 });
    assert.deepEqual(await client.likePrompt(name), { likes: 1 });
    const liked = await client.getPrompt(name);
    assert.equal(liked?.num_likes, 1);
    assert.equal(liked?.liked_by_auth_user, true);
    assert.deepEqual(await client.unlikePrompt(name), { likes: 0 });
    assert.equal((await client.getPrompt(name))?.num_likes, 0);

    await client.updatePrompt(name, { isArchived: true });
    assert.equal((await collect(client.listPrompts({ query: name }))).length, 0);
    assert.deepEqual(
      (await collect(client.listPrompts({ query: name, isArchived: true }))).map((p) => p.repo_handle),
      [name],
    );

    assert.equal(await client.promptExists(name), true);
    await client.deletePrompt(name);
    assert.equal(await client.promptExists(name), false);
    assert.equal(await client.getPrompt(name), null);
  });

  test("raw REST: trailing slashes, unknown owner is 404, bad manifest is 400, no key is 401", async () => {
    const list = await call(server, "GET", "/repos/?limit=1&offset=0&is_archived=allow");
    assert.equal(list.status, 200);
    assert.equal(list.body.repos.length, 1);
    assert.ok(list.body.total >= 2);
    const unknown = await call(server, "GET", "/repos/nobody-at-all/greeter");
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /Prompt nobody-at-all\/greeter not found/);
    const name = unique("raw");
    assert.equal((await call(server, "POST", "/repos/", { repo_handle: name, is_public: false })).status, 200);
    const bad = await call(server, "POST", `/commits/-/${name}`, { parent_commit: null });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /manifest/);
    const ok = await call(server, "POST", `/api/v1/commits/-/${name}`, { manifest: { template: "hi" } });
    assert.equal(ok.status, 200);
    assert.match(ok.body.commit.commit_hash, /^[0-9a-f]{64}$/);
    const latest = await call(server, "GET", `/commits/-/${name}/?limit=1&offset=0`);
    assert.equal(latest.body.commits[0].commit_hash, ok.body.commit.commit_hash);
    assert.equal(latest.body.total, 1);
    const noKey = await fetch(`${server.url}/repos/-/${name}`);
    assert.equal(noKey.status, 401);
  });
});
