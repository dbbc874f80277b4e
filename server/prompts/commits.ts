import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { Prisma, PromptCommit } from "../db/generated/client";
import { sql } from "../db/sql";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { findRepo, type Caller, type RepoRow } from "./access";
import type { CommitPage, NewCommit } from "./schema";
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

/** "prompt -/qa", "agent -/helper": how messages name a repo. */
export const repoName = (repo: RepoRow) => `${repo.repo_type} ${repo.owner}/${repo.repo_handle}`;

/**
 * A commit by reference: "latest", a tag name, or a hash or unique hash prefix (4+ hex digits).
 * 404 when nothing matches; 400 when a prefix matches more than one commit.
 */
export async function resolveCommit(db: Sql, repo: RepoRow, ref: string): Promise<PromptCommit> {
  const name = repoName(repo);
  if (ref === "latest") {
    const latest = await latestCommit(db, repo.id);
    if (!latest) throw notFound(`The ${name} has no commits yet: push first.`);
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
  throw notFound(`No commit or tag ${JSON.stringify(ref)} in ${name}.`);
}

/** A pull: one more download on the commit and on its repo. */
export async function countDownload(db: Sql, repo: RepoRow, commit: PromptCommit): Promise<void> {
  await db.prisma.promptCommit.update({ where: { id: commit.id }, data: { numDownloads: { increment: 1 } } });
  await db.prisma.promptRepo.update({ where: { id: repo.id }, data: { numDownloads: { increment: 1 } } });
}

/** What a push adds, built from the latest commit (null on the first push) under the repo's lock. */
export interface CommitDraft {
  manifest: unknown;
  description?: string | null;
  examples?: unknown[] | null;
}

/**
 * The locked section of every push, a prompt's manifest or an agent's or skill's files; runs in the
 * caller's transaction. `parentRef` (a hash or prefix; absent or "latest" means "on the latest")
 * must name the latest commit, else 409: someone pushed in between. A draft whose manifest equals
 * the latest commit's is a 409 too: there is nothing to commit.
 */
export async function appendCommit(
  t: Sql,
  caller: Caller,
  row: RepoRow,
  parentRef: string | null | undefined,
  draft: (latest: PromptCommit | null) => CommitDraft,
): Promise<PromptCommit> {
  const name = repoName(row);
  await t.query(sql`SELECT id FROM prompt_repos WHERE id = ${row.id} FOR UPDATE`);
  const latest = await latestCommit(t, row.id);
  const parent = parentRef && parentRef !== "latest" ? parentRef.toLowerCase() : null;
  if (parent && !latest) {
    throw conflict(`parent_commit ${parent} does not exist: the ${name} has no commits yet; push without a parent_commit.`);
  }
  if (parent && latest && !(parent.length >= 4 && latest.commitHash.startsWith(parent))) {
    throw conflict(
      `parent_commit ${parent} is not the latest commit of the ${name} (the latest is ${latest.commitHash}): pull the latest version and push again.`,
    );
  }
  const input = draft(latest);
  if (latest && canonicalJson(latest.manifest) === canonicalJson(input.manifest)) {
    const what = row.repo_type === "prompt" ? "the manifest is" : "the files are";
    throw conflict(`Nothing to commit: ${what} identical to the latest commit ${latest.commitHash} of the ${name}.`);
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
      throw conflict(`Another commit to the ${name} was pushed at the same time: pull the latest version and push again.`);
    throw error;
  }
  await t.prisma.promptRepo.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
  return created;
}

/** GET /commits/{owner}/{repo}/: {commits, total}, newest first. */
export async function listCommits(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  q: CommitPage,
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

/** POST /commits/{owner}/{repo}: a new commit on top of the latest one (see appendCommit). */
export async function createCommit(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  input: NewCommit,
): Promise<{ commit: WireCommit }> {
  await ensureHandle(db, caller.workspaceId); // outside the transaction: choosing a handle may retry on a unique violation
  return db.transaction(async (t) => {
    const row = await findRepo(t, caller, owner, repo, "write");
    if (row.repo_type !== "prompt") {
      throw conflict(
        `${row.owner}/${row.repo_handle} is an ${row.repo_type}, not a prompt: push its files with POST /v1/platform/hub/repos/${row.owner}/${row.repo_handle}/directories/commits.`,
      );
    }
    const created = await appendCommit(t, caller, row, input.parentCommit, () => input);
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
  if (!isView) await countDownload(db, row, commit);
  return commitWire(commit, row);
}

/** What the prompt's webhooks are told about a commit, or a tag put on one. */
export function eventOf(event: PromptEvent["event"], repo: RepoRow, commit: PromptCommit, caller: Caller): PromptEvent {
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
