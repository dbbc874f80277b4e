import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { Prisma, PromptCommit, PromptCommitTag } from "../db/generated/client";
import { sql } from "../db/sql";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { UUID } from "../core/uuid";
import { findRepo, type Caller, type RepoRow } from "./access";
import type { CommitCreate, CommitListQuery } from "./schema";
import { ensureHandle } from "./settings";
import { promptEventHappened, type PromptEvent } from "./webhooks";

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

/** A prompt commit as the SDKs read it. */
export const wireCommit = z.object({
  id: z.string(),
  commit_hash: z.string(),
  parent_id: z.string().nullable(),
  parent_commit_hash: z.string().nullable(),
  repo_id: z.string(),
  owner: z.string(),
  repo: z.string(),
  full_name: z.string(),
  manifest: z.unknown(),
  examples: z.array(z.unknown()),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  num_downloads: z.number(),
  num_views: z.number(),
  example_run_ids: z.array(z.string()),
});
export type WireCommit = z.infer<typeof wireCommit>;

/** A tag on a commit, as `/repos/{owner}/{repo}/tags` answers it. */
export const wireCommitTag = z.object({
  id: z.string(),
  repo_id: z.string(),
  commit_id: z.string(),
  commit_hash: z.string(),
  tag_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireCommitTag = z.infer<typeof wireCommitTag>;

function commitWire(row: PromptCommit, repo: RepoRow): WireCommit {
  return {
    id: row.id,
    commit_hash: row.commitHash,
    parent_id: row.parentId,
    parent_commit_hash: row.parentCommitHash,
    repo_id: row.repoId,
    owner: repo.owner,
    repo: repo.repo_handle,
    full_name: `${repo.owner}/${repo.repo_handle}`,
    manifest: row.manifest,
    examples: (row.examples as unknown[] | null) ?? [],
    description: row.description,
    created_at: isoFromDb(row.createdAt)!,
    updated_at: isoFromDb(row.createdAt)!,
    num_downloads: row.numDownloads,
    num_views: 0,
    example_run_ids: [],
  };
}

const latestCommit = (db: Sql, repoId: string) => db.prisma.promptCommit.findFirst({ where: { repoId }, orderBy: { version: "desc" } });

/**
 * A commit by reference: "latest", a tag name, or a hash or unique hash prefix (4+ hex digits).
 * 404 when nothing matches; 400 when a prefix matches more than one commit.
 */
async function resolveCommit(db: Sql, repo: RepoRow, ref: string): Promise<PromptCommit> {
  const name = `${repo.owner}/${repo.repo_handle}`;
  if (ref === "latest") {
    const latest = await latestCommit(db, repo.id);
    if (!latest) throw notFound(`Prompt ${name} has no commits yet: push a manifest first.`);
    return latest;
  }
  const tagged = await db.prisma.promptCommitTag.findUnique({
    where: { repoId_tagName: { repoId: repo.id, tagName: ref } },
    include: { commit: true },
  });
  if (tagged) return tagged.commit;
  if (HEX_PREFIX.test(ref)) {
    const rows = await db.prisma.promptCommit.findMany({
      where: { repoId: repo.id, commitHash: { startsWith: ref.toLowerCase() } },
      orderBy: { version: "desc" },
      take: 2,
    });
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
  const commits = await db.prisma.promptCommit.findMany({
    where: { repoId: row.id },
    orderBy: { version: "desc" },
    skip: q.offset,
    take: q.limit,
  });
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
  return db.transaction(async (t) => {
    const row = await findRepo(t, caller, owner, repo, "write");
    const name = `${row.owner}/${row.repo_handle}`;
    await t.query(sql`SELECT id FROM prompt_repos WHERE id = ${row.id} FOR UPDATE`);
    const latest = await latestCommit(t, row.id);
    const parent = input.parent_commit && input.parent_commit !== "latest" ? input.parent_commit.toLowerCase() : null;
    if (parent && !latest) {
      throw conflict(`parent_commit ${parent} does not exist: prompt ${name} has no commits yet; push without a parent_commit.`);
    }
    if (parent && latest && !(parent.length >= 4 && latest.commitHash.startsWith(parent))) {
      throw conflict(
        `parent_commit ${parent} is not the latest commit of ${name} (the latest is ${latest.commitHash}): pull the latest version and push again.`,
      );
    }
    if (latest && canonicalJson(latest.manifest) === canonicalJson(input.manifest)) {
      throw conflict(`Nothing to commit: the manifest is identical to the latest commit ${latest.commitHash} of ${name}.`);
    }
    let created: PromptCommit;
    try {
      created = await t.prisma.promptCommit.create({
        data: {
          id: randomUUID(),
          workspaceId: caller.workspaceId,
          repoId: row.id,
          version: (latest?.version ?? 0) + 1,
          commitHash: commitHash(latest?.commitHash ?? null, input.manifest),
          parentId: latest?.id ?? null,
          parentCommitHash: latest?.commitHash ?? null,
          manifest: input.manifest as Prisma.InputJsonValue,
          examples: (input.examples ?? []) as Prisma.InputJsonArray,
          description: input.description ?? null,
        },
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(`Another commit to ${name} was pushed at the same time: pull the latest version and push again.`);
      throw error;
    }
    await t.prisma.promptRepo.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
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
    await db.prisma.promptCommit.update({ where: { id: commit.id }, data: { numDownloads: { increment: 1 } } });
    await db.prisma.promptRepo.update({ where: { id: row.id }, data: { numDownloads: { increment: 1 } } });
  }
  return commitWire(commit, row);
}

const withCommitHash = { commit: { select: { commitHash: true } } } as const;

function tagWire(tag: PromptCommitTag & { commit: { commitHash: string } }): WireCommitTag {
  return {
    id: tag.id,
    repo_id: tag.repoId,
    commit_id: tag.commitId,
    commit_hash: tag.commit.commitHash,
    tag_name: tag.tagName,
    created_at: isoFromDb(tag.createdAt)!,
    updated_at: isoFromDb(tag.updatedAt)!,
  };
}

/** What the prompt's webhooks are told about a commit, or a tag put on one. */
function eventOf(event: PromptEvent["event"], repo: RepoRow, commit: PromptCommit, caller: Caller): PromptEvent {
  return {
    event,
    prompt_id: repo.id,
    prompt_name: repo.repo_handle,
    commit_hash: commit.commitHash,
    created_at: isoFromDb(commit.createdAt)!,
    created_by: caller.liker,
    manifest: commit.manifest as Record<string, unknown>,
  };
}

/** GET /repos/{owner}/{repo}/tags */
export async function listTags(db: Sql, caller: Caller, owner: string, repo: string): Promise<WireCommitTag[]> {
  const row = await findRepo(db, caller, owner, repo, "read");
  const tags = await db.prisma.promptCommitTag.findMany({
    where: { repoId: row.id },
    include: withCommitHash,
    orderBy: { tagName: "asc" },
  });
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
): Promise<WireCommitTag> {
  const row = await findRepo(db, caller, owner, repo, "write");
  const byId = UUID.test(commitRef) ? await db.prisma.promptCommit.findFirst({ where: { id: commitRef, repoId: row.id } }) : null;
  const commit = byId ?? (await resolveCommit(db, row, commitRef));
  return db.transaction(async (t) => {
    const key = { repoId_tagName: { repoId: row.id, tagName } };
    const existed = await t.prisma.promptCommitTag.findUnique({ where: key, select: { id: true } });
    const tag = await t.prisma.promptCommitTag.upsert({
      where: key,
      create: { id: randomUUID(), repoId: row.id, commitId: commit.id, tagName },
      update: { commitId: commit.id, updatedAt: new Date() },
      include: withCommitHash,
    });
    await promptEventHappened(t, caller.workspaceId, {
      ...eventOf(existed ? "tag:update" : "tag:create", row, commit, caller),
      tag_name: tagName,
    });
    return tagWire(tag);
  });
}
