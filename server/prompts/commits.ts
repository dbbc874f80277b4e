import { createHash, randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { findRepo, type Caller, type RepoRow } from "./access";
import type { CommitCreate, CommitListQuery } from "./schema";
import { ensureHandle } from "./settings";
import { promptEventHappened, type PromptEvent } from "./webhooks";

interface CommitRow {
  id: string;
  repo_id: string;
  version: number;
  commit_hash: string;
  parent_id: string | null;
  parent_commit_hash: string | null;
  manifest: unknown;
  examples: unknown[] | null;
  description: string | null;
  num_downloads: number;
  created_at: string;
}

const HEX_PREFIX = /^[0-9a-f]{4,64}$/i;

/** JSON with object keys sorted at every level, so equal manifests compare (and hash) equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256 over the parent's hash and the canonical manifest: the same content on another parent is another commit. */
export function commitHash(parentHash: string | null, manifest: unknown): string {
  return createHash("sha256")
    .update(`${parentHash ?? ""}\n${canonicalJson(manifest)}`)
    .digest("hex");
}

function commitWire(row: CommitRow, repo: RepoRow) {
  return {
    id: row.id,
    commit_hash: row.commit_hash,
    parent_id: row.parent_id,
    parent_commit_hash: row.parent_commit_hash,
    repo_id: row.repo_id,
    owner: repo.owner,
    repo: repo.repo_handle,
    full_name: `${repo.owner}/${repo.repo_handle}`,
    manifest: row.manifest,
    examples: row.examples ?? [],
    description: row.description,
    created_at: isoFromDb(row.created_at)!,
    updated_at: isoFromDb(row.created_at)!,
    num_downloads: row.num_downloads,
    num_views: 0,
    example_run_ids: [] as string[],
  };
}

/** A prompt commit as the SDKs read it. */
export type WireCommit = ReturnType<typeof commitWire>;

async function latestCommit(db: Sql, repoId: string): Promise<CommitRow | null> {
  const [row] = await db.query<CommitRow>(sql`SELECT * FROM prompt_commits WHERE repo_id = ${repoId} ORDER BY version DESC LIMIT 1`);
  return row ?? null;
}

/**
 * A commit by reference: "latest", a tag name, or a hash or unique hash prefix (4+ hex digits).
 * 404 when nothing matches; 400 when a prefix matches more than one commit.
 */
async function resolveCommit(db: Sql, repo: RepoRow, ref: string): Promise<CommitRow> {
  const name = `${repo.owner}/${repo.repo_handle}`;
  if (ref === "latest") {
    const latest = await latestCommit(db, repo.id);
    if (!latest) throw notFound(`Prompt ${name} has no commits yet: push a manifest first.`);
    return latest;
  }
  const [tagged] = await db.query<CommitRow>(sql`
    SELECT c.* FROM prompt_commit_tags t JOIN prompt_commits c ON c.id = t.commit_id WHERE t.repo_id = ${repo.id} AND t.tag_name = ${ref}`);
  if (tagged) return tagged;
  if (HEX_PREFIX.test(ref)) {
    const rows = await db.query<CommitRow>(sql`
      SELECT * FROM prompt_commits WHERE repo_id = ${repo.id} AND commit_hash LIKE ${`${ref.toLowerCase()}%`} ORDER BY version DESC LIMIT 2`);
    if (rows.length > 1)
      throw badRequest(`Commit prefix ${JSON.stringify(ref)} matches more than one commit of ${name}; give more characters of the hash.`);
    if (rows.length === 1) return rows[0];
  }
  throw notFound(`No commit or tag ${JSON.stringify(ref)} in prompt ${name}.`);
}

/** GET /commits/{owner}/{repo}/: {commits, total}, newest first. */
export async function listCommits(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  q: CommitListQuery,
): Promise<{ commits: WireCommit[]; total: number }> {
  const row = await findRepo(db, caller, owner, repo, "read");
  const commits = await db.query<CommitRow>(sql`
    SELECT * FROM prompt_commits WHERE repo_id = ${row.id} ORDER BY version DESC LIMIT ${q.limit} OFFSET ${q.offset}`);
  return { commits: commits.map((c) => commitWire(c, row)), total: row.num_commits };
}

/**
 * POST /commits/{owner}/{repo}: a new commit on top of the latest one. `parent_commit` (a hash or
 * prefix; absent means "on the latest") must name the latest commit, else 409: someone pushed in
 * between. A manifest identical to the latest commit's is a 409 too: there is nothing to commit.
 */
export async function createCommit(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  input: CommitCreate,
): Promise<{ commit: WireCommit }> {
  await ensureHandle(db, caller.workspaceId); // outside the transaction: choosing a handle may retry on a unique violation
  return db.tx(async (t) => {
    const row = await findRepo(t, caller, owner, repo, "write");
    const name = `${row.owner}/${row.repo_handle}`;
    await t.query(sql`SELECT id FROM prompt_repos WHERE id = ${row.id} FOR UPDATE`);
    const latest = await latestCommit(t, row.id);
    const parent = input.parent_commit && input.parent_commit !== "latest" ? input.parent_commit.toLowerCase() : null;
    if (parent && !latest) {
      throw conflict(`parent_commit ${parent} does not exist: prompt ${name} has no commits yet; push without a parent_commit.`);
    }
    if (parent && latest && !(parent.length >= 4 && latest.commit_hash.startsWith(parent))) {
      throw conflict(
        `parent_commit ${parent} is not the latest commit of ${name} (the latest is ${latest.commit_hash}): pull the latest version and push again.`,
      );
    }
    if (latest && canonicalJson(latest.manifest) === canonicalJson(input.manifest)) {
      throw conflict(`Nothing to commit: the manifest is identical to the latest commit ${latest.commit_hash} of ${name}.`);
    }
    const hash = commitHash(latest?.commit_hash ?? null, input.manifest);
    const id = randomUUID();
    try {
      await t.query(sql`
        INSERT INTO prompt_commits (id, workspace_id, repo_id, version, commit_hash, parent_id, parent_commit_hash, manifest, examples, description)
        VALUES (${id}, ${caller.workspaceId}, ${row.id}, ${(latest?.version ?? 0) + 1}, ${hash}, ${latest?.id ?? null}, ${latest?.commit_hash ?? null},
          ${JSON.stringify(input.manifest)}::jsonb, ${JSON.stringify(input.examples ?? [])}::jsonb, ${input.description ?? null})`);
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(`Another commit to ${name} was pushed at the same time: pull the latest version and push again.`);
      throw error;
    }
    await t.query(sql`UPDATE prompt_repos SET updated_at = now() WHERE id = ${row.id}`);
    const [created] = await t.query<CommitRow>(sql`SELECT * FROM prompt_commits WHERE id = ${id}`);
    await promptEventHappened(t, caller.workspaceId, eventOf("commit", row, created, caller));
    return { commit: commitWire(created, row) };
  });
}

/**
 * GET /commits/{owner}/{repo}/{ref}: one commit's manifest, by "latest", tag or hash (prefix).
 * Counts a download on the commit and the repo unless `is_view` says it is only being looked at.
 */
export async function pullCommit(db: Sql, caller: Caller, owner: string, repo: string, ref: string, isView = false): Promise<WireCommit> {
  const row = await findRepo(db, caller, owner, repo, "read");
  const commit = await resolveCommit(db, row, ref);
  if (!isView) {
    await db.query(sql`UPDATE prompt_commits SET num_downloads = num_downloads + 1 WHERE id = ${commit.id}`);
    await db.query(sql`UPDATE prompt_repos SET num_downloads = num_downloads + 1 WHERE id = ${row.id}`);
  }
  return commitWire(commit, row);
}

interface TagRow {
  id: string;
  repo_id: string;
  commit_id: string;
  commit_hash: string;
  tag_name: string;
  created_at: string;
  updated_at: string;
}

const tagWire = (t: TagRow) => ({ ...t, created_at: isoFromDb(t.created_at), updated_at: isoFromDb(t.updated_at) });

/** What the prompt's webhooks are told about a commit, or a tag put on one. */
function eventOf(event: PromptEvent["event"], repo: RepoRow, commit: CommitRow, caller: Caller): PromptEvent {
  return {
    event,
    prompt_id: repo.id,
    prompt_name: repo.repo_handle,
    commit_hash: commit.commit_hash,
    created_at: isoFromDb(commit.created_at)!,
    created_by: caller.liker,
    manifest: commit.manifest as Record<string, unknown>,
  };
}

/** GET /repos/{owner}/{repo}/tags */
export async function listTags(db: Sql, caller: Caller, owner: string, repo: string): Promise<Record<string, unknown>[]> {
  const row = await findRepo(db, caller, owner, repo, "read");
  const tags = await db.query<TagRow>(sql`
    SELECT t.id, t.repo_id, t.commit_id, c.commit_hash, t.tag_name, t.created_at, t.updated_at
    FROM prompt_commit_tags t JOIN prompt_commits c ON c.id = t.commit_id WHERE t.repo_id = ${row.id} ORDER BY t.tag_name`);
  return tags.map(tagWire);
}

/** POST /repos/{owner}/{repo}/tags {tag_name, commit_id}: points the tag at that commit (moving it if it exists). */
export async function tagCommit(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  tagName: string,
  commitRef: string,
): Promise<Record<string, unknown>> {
  const row = await findRepo(db, caller, owner, repo, "write");
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(commitRef);
  const [byId] = isUuid ? await db.query<CommitRow>(sql`SELECT * FROM prompt_commits WHERE id = ${commitRef} AND repo_id = ${row.id}`) : [];
  const commit = byId ?? (await resolveCommit(db, row, commitRef));
  // xmax is 0 on a row the statement inserted, not on one it updated: a new tag, or a moved one.
  const [{ inserted }] = await db.query<{ inserted: boolean }>(sql`
    INSERT INTO prompt_commit_tags (id, repo_id, commit_id, tag_name) VALUES (${randomUUID()}, ${row.id}, ${commit.id}, ${tagName})
    ON CONFLICT (repo_id, tag_name) DO UPDATE SET commit_id = EXCLUDED.commit_id, updated_at = now()
    RETURNING (xmax = 0) AS inserted`);
  await promptEventHappened(db, caller.workspaceId, {
    ...eventOf(inserted ? "tag:create" : "tag:update", row, commit, caller),
    tag_name: tagName,
  });
  const [tag] = await db.query<TagRow>(sql`
    SELECT t.id, t.repo_id, t.commit_id, c.commit_hash, t.tag_name, t.created_at, t.updated_at
    FROM prompt_commit_tags t JOIN prompt_commits c ON c.id = t.commit_id WHERE t.repo_id = ${row.id} AND t.tag_name = ${tagName}`);
  return tagWire(tag);
}
