import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import type { Caller } from "./access";
import { createCommit, listCommits } from "./commits";
import { deleteDirectory, pullDirectory, pushDirectory } from "./directories";
import { createRepo, getRepo, listRepos } from "./repos";
import {
  commitCreate,
  directoryCommitCreate,
  directoryReadQuery,
  newCommitFromWire,
  newRepoFromWire,
  repoCreate,
  repoFilterFromWire,
  repoListQuery,
  type RepoType,
} from "./schema";
import { tagCommit } from "./tags";

/** GET /repos/' parameters, through the REST adapter's mapping. */
const wireRepos = (q: Record<string, unknown>) => repoFilterFromWire(repoListQuery.parse(q));

const rejectsWith = (code: number, detail?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof AppError, String(e));
  assert.equal(e.status, code, e.detail);
  if (detail) assert.match(e.detail, detail);
  return true;
};

const file = (content: string) => ({ type: "file" as const, content });

withTestDatabases("hub directories (agents, skills)", (open) => {
  let db: Sql;
  let me: Caller;
  let other: Caller;
  const workspace = async (name: string) => {
    const id = randomUUID();
    await db.query(sql`INSERT INTO workspaces (id, name) VALUES (${id}, ${name})`);
    return id;
  };
  const make = (caller: Caller, name: string, type: RepoType) =>
    createRepo(db, caller, newRepoFromWire(repoCreate.parse({ repo_handle: name, repo_type: type })));
  const push = (caller: Caller, name: string, files: Record<string, unknown>, parent?: string) =>
    pushDirectory(db, caller, "-", name, directoryCommitCreate.parse({ files, parent_commit: parent }));
  const pull = (caller: Caller, name: string, query: Record<string, string> = {}, owner = "-") =>
    pullDirectory(db, caller, owner, name, directoryReadQuery.parse(query));

  before(async () => {
    db = (await open()).sql;
    me = { workspaceId: await workspace("Directory Team"), liker: `key:${randomUUID()}` };
    other = { workspaceId: await workspace("Someone Else"), liker: `key:${randomUUID()}` };
  });

  test("each push is a commit holding the whole tree: entries replace, null removes, the rest is kept", async () => {
    assert.equal((await make(me, "helper", "agent")).repo.repo_type, "agent");
    const first = (await push(me, "helper", { "AGENTS.md": file("# v1\n"), "tools.json": file("{}"), "notes/a.md": file("a") })).commit;
    assert.match(first.commit_hash, /^[0-9a-f]{64}$/);
    const second = (await push(me, "helper", { "AGENTS.md": file("# v2\n"), "notes/a.md": null }, first.commit_hash.slice(0, 8))).commit;

    const latest = await pull(me, "helper", { repo_type: "agent" });
    assert.equal(latest.commit_id, second.id);
    assert.equal(latest.commit_hash, second.commit_hash);
    assert.deepEqual(latest.files, { "AGENTS.md": file("# v2\n"), "tools.json": file("{}") });
    assert.deepEqual((await pull(me, "helper", { commit: first.commit_hash })).files, {
      "AGENTS.md": file("# v1\n"),
      "tools.json": file("{}"),
      "notes/a.md": file("a"),
    });

    await assert.rejects(
      push(me, "helper", { "AGENTS.md": file("# v2\n") }),
      rejectsWith(409, /Nothing to commit: the files are identical/),
    );
    await assert.rejects(
      push(me, "helper", { "gone.md": null }),
      rejectsWith(409, /Nothing to commit/),
      "removing an absent path changes nothing",
    );
    await assert.rejects(
      push(me, "helper", { "x.md": file("x") }, first.commit_hash),
      rejectsWith(409, /is not the latest commit of the agent/),
    );

    const commits = await listCommits(db, me, "-", "helper", { limit: 10, offset: 0 });
    assert.deepEqual(
      commits.commits.map((c) => c.parent_commit_hash),
      [first.commit_hash, null],
    );
    assert.equal((await getRepo(db, me, "-", "helper")).repo.num_downloads, 2);
  });

  test("pull at a tag; links to other agents and skills are kept as sent", async () => {
    await make(me, "tagged-skill", "skill");
    const link = { type: "agent", repo_handle: "helper", owner: null, commit_hash: null };
    const v1 = (await push(me, "tagged-skill", { "SKILL.md": file("one"), sub: link })).commit;
    await push(me, "tagged-skill", { "SKILL.md": file("two") });
    await tagCommit(db, me, "-", "tagged-skill", "prod", v1.id);
    const prod = await pull(me, "tagged-skill", { repo_type: "skill", commit: "prod" });
    assert.equal(prod.commit_hash, v1.commit_hash);
    assert.deepEqual(prod.files, { "SKILL.md": file("one"), sub: { type: "agent", repo_handle: "helper" } });
    assert.equal((await pull(me, "tagged-skill", { commit: "latest" })).files["SKILL.md"].type, "file");
    await assert.rejects(pull(me, "tagged-skill", { commit: "staging" }), rejectsWith(404, /No commit or tag "staging" in skill/));
  });

  test("a prompt is not a directory and an agent is not a prompt; the kinds do not mix", async () => {
    await make(me, "plain-prompt", "prompt");
    await createCommit(db, me, "-", "plain-prompt", newCommitFromWire(commitCreate.parse({ manifest: { lc: 1, type: "constructor" } })));
    await assert.rejects(push(me, "plain-prompt", { "AGENTS.md": file("x") }), rejectsWith(409, /is a prompt, not an agent or skill/));
    await assert.rejects(pull(me, "plain-prompt"), rejectsWith(404, /not found: -\/plain-prompt is a prompt/));
    await assert.rejects(deleteDirectory(db, me, "-", "plain-prompt"), rejectsWith(409, /DELETE \/repos\/-\/plain-prompt/));
    await assert.rejects(
      pull(me, "helper", { repo_type: "skill" }),
      rejectsWith(404, /Skill -\/helper not found: -\/helper is an agent, not a skill/),
    );
    await assert.rejects(
      createCommit(db, me, "-", "helper", newCommitFromWire(commitCreate.parse({ manifest: { lc: 1 } }))),
      rejectsWith(409, /is an agent, not a prompt: push its files with POST \/v1\/platform\/hub\/repos/),
    );
    await assert.rejects(pull(me, "no-such-agent", { repo_type: "agent" }), rejectsWith(404, /Agent -\/no-such-agent not found/));
    await make(me, "empty-agent", "agent");
    await assert.rejects(pull(me, "empty-agent"), rejectsWith(404, /agent .*empty-agent has no commits yet/));
  });

  test("lists: prompts by default (listPrompts), one kind or several by repo_type", async () => {
    const names = async (query: Record<string, unknown>) =>
      (await listRepos(db, me, wireRepos({ ...query, sort_field: "repo_handle", sort_direction: "asc" }))).repos.map(
        (r) => `${r.repo_type}:${r.repo_handle}`,
      );
    assert.deepEqual(await names({}), ["prompt:plain-prompt"]);
    assert.deepEqual(await names({ repo_type: "agent" }), ["agent:empty-agent", "agent:helper"]);
    assert.deepEqual(await names({ repo_type: "skill", query: "tagged" }), ["skill:tagged-skill"]);
    assert.deepEqual(await names({ repo_type: ["skill", "prompt"] }), ["prompt:plain-prompt", "skill:tagged-skill"]);
    assert.throws(() => wireRepos({ repo_type: "tool" }));
  });

  test("another workspace: its private agent is a 404, its public one can be pulled but not pushed or deleted", async () => {
    await make(other, "their-agent", "agent");
    await pushDirectory(db, other, "-", "their-agent", directoryCommitCreate.parse({ files: { "AGENTS.md": file("theirs") } }));
    const owner = (await getRepo(db, other, "-", "their-agent")).repo.owner;
    await assert.rejects(pull(me, "their-agent", {}, owner), rejectsWith(404, /not found/));
    await db.query(sql`UPDATE prompt_repos SET is_public = true WHERE workspace_id = ${other.workspaceId}`);
    assert.deepEqual((await pull(me, "their-agent", { repo_type: "agent" }, owner)).files, { "AGENTS.md": file("theirs") });
    await assert.rejects(
      pushDirectory(db, me, owner, "their-agent", directoryCommitCreate.parse({ files: { "x.md": file("x") } })),
      rejectsWith(403, /belongs to another workspace/),
    );
    await assert.rejects(deleteDirectory(db, me, owner, "their-agent"), rejectsWith(403));
  });

  test("delete takes the commits and tags with it", async () => {
    await deleteDirectory(db, me, "-", "tagged-skill");
    await assert.rejects(pull(me, "tagged-skill"), rejectsWith(404, /not found/));
    const [{ n }] = await db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM prompt_commits c WHERE NOT EXISTS (SELECT 1 FROM prompt_repos r WHERE r.id = c.repo_id)`,
    );
    assert.equal(n, 0);
  });

  test("bad input: paths that would escape or are malformed, entries of unknown type, no change at all", () => {
    const bad = (files: unknown) => assert.equal(directoryCommitCreate.safeParse({ files }).success, false, JSON.stringify(files));
    for (const path of ["/abs.md", "a/../b.md", "./a.md", "a//b.md", "dir/", "a\\b.md", "tab\there", ""]) bad({ [path]: file("x") });
    bad({});
    bad({ "a.md": { type: "folder" } });
    bad({ "a.md": { type: "file" } });
    bad({ "a.md": { type: "skill", repo_handle: "bad/handle" } });
    assert.equal(directoryCommitCreate.safeParse({ files: { "nested/dir/ok-file.md": file(""), "x.md": null } }).success, true);
  });
});
