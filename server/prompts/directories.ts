import { z } from "zod";
import type { Sql } from "../db/client";
import type { PromptCommit } from "../db/generated/client";
import { badRequest, conflict, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { findRepo, type Caller, type RepoRow } from "./access";
import { appendCommit, countDownload, resolveCommit } from "./commits";
import { directoryEntry, type DirectoryCommitCreate, type DirectoryEntry, type DirectoryReadQuery, type DirectoryType } from "./schema";
import { ensureHandle } from "./settings";

/** Bounds on one commit's whole tree, which every later commit copies. */
const MAX_PATHS = 1000;
const MAX_TREE_CHARS = 16 * 1024 * 1024;

/** What `pullAgent` / `pullSkill` read: one commit's whole directory. */
export const wireDirectory = z.object({
  commit_id: z.string(),
  commit_hash: z.string(),
  files: z.record(z.string(), directoryEntry),
});
export type WireDirectory = z.infer<typeof wireDirectory>;

/** What `pushAgent` / `pushSkill` read back from a push. */
export const wireDirectoryCommit = z.object({
  commit: z.object({ id: z.string(), commit_hash: z.string(), created_at: z.string() }),
});

type Tree = Record<string, DirectoryEntry>;

/** A directory commit's manifest is `{files: {...}}`, the whole tree; read back through zod like any stored JSON. */
const storedTree = z.object({ files: z.record(z.string(), directoryEntry) });
const treeOf = (commit: PromptCommit): Tree => storedTree.parse(commit.manifest).files;

/** The parent's tree with the pushed changes: an entry replaces the path's, null removes it. */
function applyChanges(parent: Tree, changes: DirectoryCommitCreate["files"]): Tree {
  const tree = { ...parent };
  for (const [path, entry] of Object.entries(changes)) {
    if (entry === null) delete tree[path];
    else tree[path] = entry;
  }
  const paths = Object.keys(tree).length;
  if (paths > MAX_PATHS) throw badRequest(`files: the directory would hold ${paths} paths; the limit is ${MAX_PATHS}.`);
  const chars = Object.values(tree).reduce((n, e) => n + (e.type === "file" ? e.content.length : 0), 0);
  if (chars > MAX_TREE_CHARS) {
    throw badRequest(`files: the directory's files would hold ${chars} characters together; the limit is ${MAX_TREE_CHARS}.`);
  }
  return tree;
}

const withArticle = (type: RepoRow["repo_type"]) => `${type === "agent" ? "an" : "a"} ${type}`;
const capitalized = (type: DirectoryType | undefined) => (type === "skill" ? "Skill" : type === "agent" ? "Agent" : "Agent or skill");

/**
 * An agent or skill repo (of the asked type, when one is asked). A prompt, or a repo of the other
 * type, is not one: reading it is a 404 naming what it is, changing it through these paths a 409.
 */
async function findDirectory(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  mode: "read" | "write",
  type?: DirectoryType,
): Promise<RepoRow> {
  const noun = capitalized(type);
  const row = await findRepo(db, caller, owner, repo, mode, noun);
  if (row.repo_type !== "prompt" && (!type || row.repo_type === type)) return row;
  const detail = `${owner}/${repo} is ${withArticle(row.repo_type)}, not ${type ? withArticle(type) : "an agent or skill"}`;
  if (mode === "read") throw notFound(`${noun} ${owner}/${repo} not found: ${detail}.`);
  throw conflict(
    row.repo_type === "prompt"
      ? `${detail}: change it with POST /commits/${owner}/${repo} or DELETE /repos/${owner}/${repo}.`
      : `${detail}.`,
  );
}

/**
 * POST /v1/platform/hub/repos/{owner}/{repo}/directories/commits: a commit holding the latest
 * tree with the pushed changes; versioned, tagged and guarded (parent_commit, nothing to commit)
 * like a prompt commit.
 */
export async function pushDirectory(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  input: DirectoryCommitCreate,
): Promise<z.infer<typeof wireDirectoryCommit>> {
  await ensureHandle(db, caller.workspaceId); // outside the transaction: choosing a handle may retry on a unique violation
  return db.transaction(async (t) => {
    const row = await findDirectory(t, caller, owner, repo, "write");
    const created = await appendCommit(t, caller, row, input.parent_commit, (latest) => ({
      manifest: { files: applyChanges(latest ? treeOf(latest) : {}, input.files) },
    }));
    return { commit: { id: created.id, commit_hash: created.commitHash, created_at: isoFromDb(created.createdAt)! } };
  });
}

/** GET /v1/platform/hub/repos/{owner}/{repo}/directories: one commit's tree (the latest, a tag's, a hash's); counts a download. */
export async function pullDirectory(db: Sql, caller: Caller, owner: string, repo: string, q: DirectoryReadQuery): Promise<WireDirectory> {
  const row = await findDirectory(db, caller, owner, repo, "read", q.repo_type);
  const commit = await resolveCommit(db, row, q.commit ?? "latest");
  await countDownload(db, row, commit);
  return { commit_id: commit.id, commit_hash: commit.commitHash, files: treeOf(commit) };
}

/** DELETE /v1/platform/hub/repos/{owner}/{repo}/directories: the agent or skill with its commits and tags. */
export async function deleteDirectory(db: Sql, caller: Caller, owner: string, repo: string): Promise<void> {
  const row = await findDirectory(db, caller, owner, repo, "write");
  await db.prisma.promptRepo.delete({ where: { id: row.id } });
}
