import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { forbidden, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { REPO_TYPES, type RepoType } from "./schema";
import { ensureHandle } from "./settings";

export interface RepoRow {
  id: string;
  workspace_id: string;
  owner: string;
  repo_handle: string;
  repo_type: RepoType;
  description: string | null;
  readme: string | null;
  tags: string[];
  is_public: boolean;
  is_archived: boolean;
  num_likes: number;
  num_downloads: number;
  num_views: number;
  num_commits: number;
  last_commit_hash: string | null;
  liked_by_auth_user: boolean;
  created_at: string;
  updated_at: string;
}

/** Who asks: their workspace, and the identity their likes are counted under (user id or "key:<id>"). */
export interface Caller {
  workspaceId: string;
  liker: string;
}

/** A repo with its looked-up counts, as every read sees it. */
export const repoSelect = (liker: string) => sql`
  SELECT r.id, r.workspace_id, w.handle AS owner, r.repo_handle, r.repo_type, r.description, r.readme, r.tags, r.is_public,
    r.is_archived, r.num_likes, r.num_downloads, r.num_views, r.created_at, r.updated_at,
    (SELECT count(*)::int FROM prompt_commits c WHERE c.repo_id = r.id) AS num_commits,
    (SELECT c.commit_hash FROM prompt_commits c WHERE c.repo_id = r.id ORDER BY c.version DESC LIMIT 1) AS last_commit_hash,
    EXISTS (SELECT 1 FROM prompt_likes l WHERE l.repo_id = r.id AND l.liker = ${liker}) AS liked_by_auth_user
  FROM prompt_repos r JOIN workspaces w ON w.id = r.workspace_id`;

/** The Prompt (repo) schema the SDKs read. */
export const wireRepo = z.object({
  id: z.string(),
  repo_handle: z.string(),
  full_name: z.string(),
  owner: z.string(),
  tenant_id: z.string(),
  description: z.string().nullable(),
  readme: z.string().nullable(),
  tags: z.array(z.string()),
  is_public: z.boolean(),
  is_archived: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  num_likes: z.number(),
  num_downloads: z.number(),
  num_views: z.number(),
  num_commits: z.number(),
  last_commit_hash: z.string().nullable(),
  liked_by_auth_user: z.boolean(),
  original_repo_id: z.null(),
  upstream_repo_id: z.null(),
  original_repo_full_name: z.null(),
  upstream_repo_full_name: z.null(),
  repo_type: z.enum(REPO_TYPES),
});
export type WireRepo = z.infer<typeof wireRepo>;

export function repoWire(row: RepoRow): WireRepo {
  return {
    id: row.id,
    repo_handle: row.repo_handle,
    full_name: `${row.owner}/${row.repo_handle}`,
    owner: row.owner,
    tenant_id: row.workspace_id,
    description: row.description,
    readme: row.readme,
    tags: row.tags ?? [],
    is_public: row.is_public,
    is_archived: row.is_archived,
    created_at: isoFromDb(row.created_at)!,
    updated_at: isoFromDb(row.updated_at)!,
    num_likes: row.num_likes,
    num_downloads: row.num_downloads,
    num_views: row.num_views,
    num_commits: row.num_commits,
    last_commit_hash: row.last_commit_hash,
    liked_by_auth_user: row.liked_by_auth_user,
    original_repo_id: null,
    upstream_repo_id: null,
    original_repo_full_name: null,
    upstream_repo_full_name: null,
    repo_type: row.repo_type,
  };
}

/** A repo's path: `/repos/{owner}/{repo}`, `/commits/{owner}/{repo}`, `/likes/{owner}/{repo}`. */
export const repoParams = z.object({ owner: z.string(), repo: z.string() });

/**
 * The workspace an owner names: "-" and the caller's own handle are the caller's workspace;
 * another handle is that workspace (null when no workspace has it).
 */
export async function ownerWorkspace(db: Sql, workspaceId: string, owner: string): Promise<{ id: string; own: boolean } | null> {
  const handle = await ensureHandle(db, workspaceId);
  if (owner === "-" || owner === handle) return { id: workspaceId, own: true };
  const row = await db.prisma.workspace.findUnique({ where: { handle: owner }, select: { id: true } });
  return row ? { id: row.id, own: row.id === workspaceId } : null;
}

/**
 * A repo the caller may read ("read": own, or another workspace's public one) or change ("write":
 * own only). Another workspace's private repo is a 404, exactly like a missing one.
 */
export async function findRepo(
  db: Sql,
  caller: Caller,
  owner: string,
  repo: string,
  mode: "read" | "write",
  noun = "Prompt",
): Promise<RepoRow> {
  const missing = notFound(`${noun} ${owner}/${repo} not found.`);
  const target = await ownerWorkspace(db, caller.workspaceId, owner);
  if (!target) throw missing;
  const [row] = await db.query<RepoRow>(sql`${repoSelect(caller.liker)} WHERE r.workspace_id = ${target.id} AND r.repo_handle = ${repo}`);
  if (!row || (!target.own && !row.is_public)) throw missing;
  if (mode === "write" && !target.own) {
    throw forbidden(`${noun} ${row.owner}/${repo} belongs to another workspace: you can read it, but only its owner can change it.`);
  }
  return row;
}

/** The caller as the prompt services see it; likes count per user, or per API key for service keys. */
export function callerOf(ctx: { workspaceId: string; identity: { userId?: string; apiKeyId?: string } }): Caller {
  return { workspaceId: ctx.workspaceId, liker: ctx.identity.userId ?? `key:${ctx.identity.apiKeyId ?? "anonymous"}` };
}
