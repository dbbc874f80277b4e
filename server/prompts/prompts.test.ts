import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import type { Caller } from "./access";
import { commitHash, createCommit, listCommits, pullCommit } from "./commits";
import { createRepo, deleteRepo, getRepo, likeRepo, listRepos, updateRepo } from "./repos";
import { commitCreate, newCommitFromWire, newRepoFromWire, repoCreate, repoFilterFromWire, repoListQuery, repoUpdate } from "./schema";
import { getSettings, setHandle, slugify } from "./settings";
import { listTags, tagCommit } from "./tags";

/** GET /repos/' parameters, through the REST adapter's mapping. */
const wireRepos = (q: Record<string, unknown>) => repoFilterFromWire(repoListQuery.parse(q));

const rejectsWith = (code: number, detail?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof AppError, String(e));
  assert.equal(e.status, code, e.detail);
  if (detail) assert.match(e.detail, detail);
  return true;
};

const manifest = (text: string) => ({
  lc: 1,
  type: "constructor",
  id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
  kwargs: { input_variables: ["question"], messages: [{ role: "system", content: text }] },
});

withTestDatabases("prompts", (open) => {
  let db: Sql;
  let me: Caller;
  let other: Caller;
  const workspace = async (name: string) => {
    const id = randomUUID();
    await db.query(sql`INSERT INTO workspaces (id, name) VALUES (${id}, ${name})`);
    return id;
  };
  const names = (list: { repos: Record<string, unknown>[] }) => list.repos.map((r) => r.repo_handle);
  const push = (caller: Caller, repo: string, text: string, parent?: string) =>
    createCommit(db, caller, "-", repo, newCommitFromWire(commitCreate.parse({ manifest: manifest(text), parent_commit: parent })));

  before(async () => {
    db = (await open()).sql;
    me = { workspaceId: await workspace("Acme Prompts!"), liker: `key:${randomUUID()}` };
    other = { workspaceId: await workspace("Acme Prompts"), liker: `key:${randomUUID()}` };
  });

  test("settings: a handle is chosen lazily from the name, unique across workspaces, and can be set", async () => {
    assert.equal(slugify("Default workspace"), "default-workspace");
    assert.equal(slugify("A"), "workspace-a");
    const mine = await getSettings(db, me.workspaceId);
    assert.equal(mine.tenant_handle, "acme-prompts");
    assert.equal(mine.id, me.workspaceId);
    assert.equal((await getSettings(db, me.workspaceId)).tenant_handle, "acme-prompts", "stable once chosen");
    const theirs = await getSettings(db, other.workspaceId);
    assert.equal(theirs.tenant_handle, `acme-prompts-${other.workspaceId.slice(0, 8)}`);
    await assert.rejects(setHandle(db, other.workspaceId, "acme-prompts"), rejectsWith(409, /taken/));
    assert.equal((await setHandle(db, other.workspaceId, "other-co")).tenant_handle, "other-co");
  });

  test("create, get by '-' and by handle, 409 on a taken name, tags and flags", async () => {
    const { repo } = await createRepo(
      db,
      me,
      newRepoFromWire(repoCreate.parse({ repo_handle: "greeter", description: "Says hello", tags: ["chat", "en"] })),
    );
    assert.equal(repo.full_name, "acme-prompts/greeter");
    assert.equal(repo.owner, "acme-prompts");
    assert.equal(repo.tenant_id, me.workspaceId);
    assert.deepEqual(repo.tags, ["chat", "en"]);
    assert.equal(repo.is_public, false);
    assert.equal(repo.num_commits, 0);
    assert.equal(repo.last_commit_hash, null);
    assert.deepEqual((await getRepo(db, me, "acme-prompts", "greeter")).repo, repo);
    await assert.rejects(
      createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "greeter" }))),
      rejectsWith(409, /already exists/),
    );
    assert.throws(() => newRepoFromWire(repoCreate.parse({ repo_handle: "bad/name" })));
    await assert.rejects(getRepo(db, me, "-", "nope"), rejectsWith(404, /Prompt -\/nope not found/));
    await assert.rejects(getRepo(db, me, "no-such-owner", "greeter"), rejectsWith(404));
  });

  test("commits: push, parent checks, identical manifest 409, pull by latest, hash and prefix", async () => {
    await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "qa" })));
    await assert.rejects(pullCommit(db, me, "-", "qa", "latest"), rejectsWith(404, /no commits yet/));
    await assert.rejects(push(me, "qa", "v1", "deadbeef"), rejectsWith(409, /no commits yet/));
    const first = (await push(me, "qa", "v1")).commit;
    assert.equal(first.commit_hash, commitHash(null, manifest("v1")));
    assert.match(first.commit_hash as string, /^[0-9a-f]{64}$/);
    assert.equal(first.parent_commit_hash, null);
    assert.equal(first.owner, "acme-prompts");
    assert.equal(first.repo, "qa");
    await assert.rejects(push(me, "qa", "v1"), rejectsWith(409, /Nothing to commit: the manifest is identical to the latest commit/));
    const second = (await push(me, "qa", "v2", first.commit_hash as string)).commit;
    assert.equal(second.parent_commit_hash, first.commit_hash);
    assert.equal(second.parent_id, first.id);
    // a stale parent: someone pushed in between
    await assert.rejects(push(me, "qa", "v3", first.commit_hash as string), rejectsWith(409, /is not the latest commit/));
    const third = (await push(me, "qa", "v3", (second.commit_hash as string).slice(0, 8))).commit;
    // key order does not make a manifest different
    const reordered = { kwargs: manifest("v3").kwargs, id: manifest("v3").id, type: "constructor", lc: 1 };
    await assert.rejects(
      createCommit(db, me, "-", "qa", newCommitFromWire(commitCreate.parse({ manifest: reordered }))),
      rejectsWith(409, /identical/),
    );

    const latest = await pullCommit(db, me, "-", "qa", "latest");
    assert.equal(latest.commit_hash, third.commit_hash);
    assert.deepEqual(latest.manifest, manifest("v3"));
    assert.deepEqual(latest.examples, []);
    assert.deepEqual((await pullCommit(db, me, "-", "qa", first.commit_hash as string)).manifest, manifest("v1"));
    assert.deepEqual((await pullCommit(db, me, "acme-prompts", "qa", (second.commit_hash as string).slice(0, 8))).manifest, manifest("v2"));
    await assert.rejects(pullCommit(db, me, "-", "qa", "0000000000"), rejectsWith(404, /No commit or tag/));

    const list = await listCommits(db, me, "-", "qa", { limit: 2, offset: 0 });
    assert.equal(list.total, 3);
    assert.deepEqual(
      list.commits.map((c) => c.commit_hash),
      [third.commit_hash, second.commit_hash],
    );
    assert.deepEqual(
      (await listCommits(db, me, "-", "qa", { limit: 2, offset: 2 })).commits.map((c) => c.commit_hash),
      [first.commit_hash],
    );
    const { repo } = await getRepo(db, me, "-", "qa");
    assert.equal(repo.num_commits, 3);
    assert.equal(repo.last_commit_hash, third.commit_hash);
    assert.equal(repo.num_downloads, 3);
  });

  test("concurrent pushes on one parent: exactly one wins, the others are told to pull", async () => {
    await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "race" })));
    const base = (await push(me, "race", "base")).commit.commit_hash as string;
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => push(me, "race", `edit ${i}`, base)));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    for (const r of results) if (r.status === "rejected") rejectsWith(409, /pull the latest/)(r.reason);
    assert.equal((await listCommits(db, me, "-", "race", { limit: 10, offset: 0 })).total, 2);
  });

  test("commit tags: pull by tag, move a tag", async () => {
    await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "tagged" })));
    const a = (await push(me, "tagged", "a")).commit;
    const b = (await push(me, "tagged", "b")).commit;
    await tagCommit(db, me, "-", "tagged", "prod", a.id as string);
    assert.deepEqual((await pullCommit(db, me, "-", "tagged", "prod")).manifest, manifest("a"));
    const moved = await tagCommit(db, me, "-", "tagged", "prod", b.commit_hash as string);
    assert.equal(moved.commit_hash, b.commit_hash);
    assert.deepEqual(
      (await listTags(db, me, "-", "tagged")).map((t) => t.tag_name),
      ["prod"],
    );
    assert.deepEqual((await pullCommit(db, me, "-", "tagged", "prod")).manifest, manifest("b"));
  });

  test("list: query, prefix, tags, visibility, archive, sort and paging with total", async () => {
    const ws: Caller = { workspaceId: await workspace("Lister"), liker: "key:l" };
    for (const [handle, description, tags] of [
      ["translate-fr", "French translation", ["i18n"]],
      ["translate-de", "German", ["i18n", "de"]],
      ["summarize", "Short summaries", []],
    ] as const) {
      await createRepo(db, ws, newRepoFromWire(repoCreate.parse({ repo_handle: handle, description, tags: [...tags] })));
    }
    const list = (q: Record<string, string | string[]>) => listRepos(db, ws, wireRepos(q));
    assert.equal((await list({})).total, 3);
    assert.deepEqual(names(await list({ query: "translat", sort_field: "repo_handle", sort_direction: "asc" })), [
      "translate-de",
      "translate-fr",
    ]);
    assert.deepEqual(names(await list({ query: "summaries" })), ["summarize"], "description matches too");
    assert.deepEqual(names(await list({ query: "fr", match_prefix: "true" })), []);
    assert.deepEqual(names(await list({ tags: ["i18n", "de"] })), ["translate-de"]);
    const page = await list({ sort_field: "repo_handle", sort_direction: "asc", limit: "2", offset: "1" });
    assert.deepEqual(names(page), ["translate-de", "translate-fr"]);
    assert.equal(page.total, 3);

    await updateRepo(db, ws, "-", "summarize", repoUpdate.parse({ is_archived: true }));
    assert.deepEqual(names(await list({ sort_field: "repo_handle", sort_direction: "asc" })), ["translate-de", "translate-fr"]);
    assert.deepEqual(names(await list({ is_archived: "true" })), ["summarize"]);
    assert.equal((await list({ is_archived: "allow" })).total, 3);

    await updateRepo(db, ws, "-", "translate-fr", repoUpdate.parse({ is_public: true }));
    assert.deepEqual(names(await list({ is_public: "true" })), ["translate-fr"]);
    assert.deepEqual(names(await list({ is_public: "false" })), ["translate-de"]);
    // updated_at desc: the one just changed comes first
    assert.equal(names(await list({}))[0], "translate-fr");
    // someone else listing this workspace by handle sees only its public repos
    const handle = (await getSettings(db, ws.workspaceId)).tenant_handle as string;
    assert.deepEqual(names(await listRepos(db, me, wireRepos({ tenant_handle: handle }))), ["translate-fr"]);
    assert.deepEqual(names(await listRepos(db, me, wireRepos({ tenant_handle: "nobody-here" }))), []);
  });

  test("update and delete; another workspace: private is 404, public is readable but not writable", async () => {
    await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "shared", tags: ["x"] })));
    await push(me, "shared", "hello");
    const { repo } = await updateRepo(db, me, "-", "shared", repoUpdate.parse({ description: "Now described", tags: ["y", "z"] }));
    assert.equal(repo.description, "Now described");
    assert.deepEqual(repo.tags, ["y", "z"]);
    await assert.rejects(updateRepo(db, me, "-", "shared", repoUpdate.parse({})), rejectsWith(400, /Nothing to update/));

    await assert.rejects(getRepo(db, other, "acme-prompts", "shared"), rejectsWith(404));
    await assert.rejects(pullCommit(db, other, "acme-prompts", "shared", "latest"), rejectsWith(404));
    await assert.rejects(getRepo(db, other, "-", "shared"), rejectsWith(404), "'-' is the caller's own workspace");
    await updateRepo(db, me, "-", "shared", repoUpdate.parse({ is_public: true }));
    assert.equal((await getRepo(db, other, "acme-prompts", "shared")).repo.full_name, "acme-prompts/shared");
    assert.deepEqual((await pullCommit(db, other, "acme-prompts", "shared", "latest")).manifest, manifest("hello"));
    await assert.rejects(
      updateRepo(db, other, "acme-prompts", "shared", repoUpdate.parse({ description: "mine now" })),
      rejectsWith(403, /another workspace/),
    );
    await assert.rejects(
      createCommit(db, other, "acme-prompts", "shared", newCommitFromWire(commitCreate.parse({ manifest: manifest("x") }))),
      rejectsWith(403),
    );
    await assert.rejects(deleteRepo(db, other, "acme-prompts", "shared"), rejectsWith(403));

    await deleteRepo(db, me, "-", "shared");
    await assert.rejects(getRepo(db, me, "-", "shared"), rejectsWith(404));
    const [{ n }] = await db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM prompt_commits c WHERE NOT EXISTS (SELECT 1 FROM prompt_repos r WHERE r.id = c.repo_id)`,
    );
    assert.equal(n, 0, "commits go with their repo");
  });

  test("likes: idempotent per liker, counted across workspaces, liked_by_auth_user, is_liked filter", async () => {
    const { repo } = await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "liked", is_public: true })));
    assert.deepEqual(await likeRepo(db, me, "-", "liked", true), { likes: 1 });
    assert.deepEqual(await likeRepo(db, me, "-", "liked", true), { likes: 1 });
    assert.deepEqual(await likeRepo(db, other, repo.owner as string, "liked", true), { likes: 2 });
    assert.equal((await getRepo(db, me, "-", "liked")).repo.liked_by_auth_user, true);
    assert.equal((await getRepo(db, me, "-", "liked")).repo.num_likes, 2);
    assert.deepEqual(names(await listRepos(db, me, wireRepos({ is_liked: "true" }))), ["liked"]);
    assert.deepEqual(await likeRepo(db, me, "-", "liked", false), { likes: 1 });
    assert.deepEqual(await likeRepo(db, me, "-", "liked", false), { likes: 1 });
    assert.equal((await getRepo(db, me, "-", "liked")).repo.liked_by_auth_user, false);
    await createRepo(db, me, newRepoFromWire(repoCreate.parse({ repo_handle: "private-one" })));
    await assert.rejects(likeRepo(db, other, repo.owner as string, "private-one", true), rejectsWith(404));
    const top = await listRepos(db, me, wireRepos({ sort_field: "num_likes" }));
    assert.equal(top.repos[0].repo_handle, "liked");
  });
});
