import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import type { FileEntry } from "langsmith/schemas";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const file = (content: string): FileEntry => ({ type: "file", content });

describe("hub agents and skills (directories) with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  /** The hash prefix a push's URL ends with: `{host}/context/{name}/{8 hex}?organizationId=...`. */
  const hashOf = (url: string) => /\/context\/[^/]+\/([0-9a-f]{8})\?/.exec(url)?.[1] ?? assert.fail(`no commit in ${url}`);

  test("pushAgent creates the agent and a commit; later pushes replace and (null) remove files; pull at a hash and a tag", async () => {
    const name = unique("agent");
    const url1 = await client.pushAgent(name, {
      files: { "AGENTS.md": file("# Agent v1\n"), "tools.json": file('{"tools":[]}'), "old.md": file("old") },
      description: "an e2e agent",
    });
    assert.match(url1, new RegExp(`/context/${name}/[0-9a-f]{8}\\?organizationId=${server.workspaceId}$`));
    const url2 = await client.pushAgent(name, { files: { "AGENTS.md": file("# Agent v2\n"), "old.md": null }, parentCommit: hashOf(url1) });

    const latest = await client.pullAgent(name);
    assert.ok(latest.commit_hash.startsWith(hashOf(url2)));
    assert.match(latest.commit_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(latest.files, { "AGENTS.md": file("# Agent v2\n"), "tools.json": file('{"tools":[]}') });
    const first = await client.pullAgent(`-/${name}:${hashOf(url1)}`);
    assert.deepEqual(first.files["old.md"], file("old"));
    assert.deepEqual((await client.pullAgent(name, { version: hashOf(url1) })).files, first.files);

    const tagged = await call(server, "POST", `/repos/-/${name}/tags`, { tag_name: "prod", commit_id: first.commit_id });
    assert.equal(tagged.status, 200, JSON.stringify(tagged.body));
    const prod = await client.pullAgent(name, { version: "prod" });
    assert.equal(prod.commit_hash, first.commit_hash);
    assert.equal(prod.files["AGENTS.md"].type, "file");
    assert.equal((prod.files["AGENTS.md"] as FileEntry).content, "# Agent v1\n");

    const repo = await call(server, "GET", `/repos/-/${name}`);
    assert.equal(repo.body.repo.repo_type, "agent");
    assert.equal(repo.body.repo.description, "an e2e agent");
    assert.equal(repo.body.repo.num_commits, 2);
    await assert.rejects(client.pushAgent(name, { files: { "AGENTS.md": file("# Agent v2\n") } }), /409.*Nothing to commit/s);
    await assert.rejects(
      client.pushAgent(name, { files: { "x.md": file("x") }, parentCommit: hashOf(url1) }),
      /409.*is not the latest commit/s,
    );
  });

  test("pushSkill / pullSkill, listAgents and listSkills by kind, listPrompts shows prompts only", async () => {
    const skill = unique("skill");
    const agent = unique("agent");
    const prompt = unique("prompt");
    await client.pushSkill(skill, { files: { "SKILL.md": file("# Skill\n"), "scripts/run.py": file("print(1)\n") } });
    await client.pushAgent(agent, {
      files: { "AGENTS.md": file("# uses a skill\n"), "skills/mine": { type: "skill", repo_handle: skill } },
    });
    await client.pushPrompt(prompt, { object: { lc: 1, type: "constructor", id: ["x"], kwargs: {} } });

    const pulled = await client.pullSkill(skill);
    assert.deepEqual(pulled.files, { "SKILL.md": file("# Skill\n"), "scripts/run.py": file("print(1)\n") });
    assert.deepEqual((await client.pullAgent(agent)).files["skills/mine"], { type: "skill", repo_handle: skill });

    const agents = (await collect(client.listAgents())).map((r) => r.repo_handle);
    const skills = (await collect(client.listSkills({ query: skill }))).map((r) => r.repo_handle);
    const prompts = (await collect(client.listPrompts())).map((r) => r.repo_handle);
    assert.ok(agents.includes(agent) && !agents.includes(skill) && !agents.includes(prompt), agents.join());
    assert.deepEqual(skills, [skill]);
    assert.ok(prompts.includes(prompt) && !prompts.includes(agent) && !prompts.includes(skill), prompts.join());

    // The kinds do not mix: a skill is not pulled as an agent, an agent takes no prompt manifest.
    await assert.rejects(client.pullAgent(skill), /404.*is a skill, not an agent/s);
    await assert.rejects(client.pushPrompt(agent, { object: { lc: 1 } }), /409.*not a prompt/s);
  });

  test("agentExists / skillExists follow create and delete; a deleted agent cannot be pulled", async () => {
    const agent = unique("agent");
    const skill = unique("skill");
    assert.equal(await client.agentExists(agent), false);
    await client.pushAgent(agent, { files: { "AGENTS.md": file("x") } });
    assert.equal(await client.agentExists(agent), true);
    await client.deleteAgent(agent);
    assert.equal(await client.agentExists(agent), false);
    await assert.rejects(client.pullAgent(agent), /404/);

    await client.pushSkill(skill, { files: { "SKILL.md": file("x") } });
    assert.equal(await client.skillExists(skill), true);
    await client.deleteSkill(skill);
    assert.equal(await client.skillExists(skill), false);
  });

  test("the same paths under /api/v1 (a client whose apiUrl ends in /v1); bad input is a 400 naming it", async () => {
    const viaApi = new Client({ apiUrl: `${server.url}/api/v1`, apiKey: server.apiKey });
    const name = unique("agent");
    await viaApi.pushAgent(name, { files: { "AGENTS.md": file("via /api/v1") } });
    assert.equal(((await client.pullAgent(name)).files["AGENTS.md"] as FileEntry).content, "via /api/v1");

    const escape = await call(server, "POST", `/v1/platform/hub/repos/-/${name}/directories/commits`, {
      files: { "../etc/passwd": file("x") },
    });
    assert.equal(escape.status, 400);
    assert.match(escape.body.detail, /files.*relative path/s);
    const unknownType = await call(server, "POST", `/api/v1/platform/hub/repos/-/${name}/directories/commits`, {
      files: { "a.md": { type: "folder" } },
    });
    assert.equal(unknownType.status, 400);
    assert.match(unknownType.body.detail, /files/);
    const wrongMethod = await call(server, "PUT", `/v1/platform/hub/repos/-/${name}/directories`);
    assert.equal(wrongMethod.status, 405);
  });
});
