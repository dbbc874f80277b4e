import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, raw, sql, type SqlFragment } from "../db/sql";
import { badRequest, conflict, isUniqueViolation } from "../core/errors";
import { findRepo, ownerWorkspace, repoSelect, repoWire, type Caller, type RepoRow, type WireRepo } from "./access";
import type { NewRepo, RepoFilter, RepoUpdate } from "./schema";
import { ensureHandle } from "./settings";
import { UUID } from "../core/uuid";
import { likeLiteral } from "../core/like";

const SORT_COLUMN: Record<NonNullable<RepoFilter["sortField"]>, string> = {
  updated_at: "r.updated_at",
  relevance: "r.updated_at",
  created_at: "r.created_at",
  num_likes: "r.num_likes",
  num_downloads: "r.num_downloads",
  num_views: "r.num_views",
  repo_handle: "r.repo_handle",
};

/** Whose repos a list shows: the caller's own, or (tenant_handle / tenant_id) another workspace's public ones. */
async function listScope(db: Sql, caller: Caller, q: RepoFilter): Promise<SqlFragment | null> {
  if (q.tenantHandle) {
    const target = await ownerWorkspace(db, caller.workspaceId, q.tenantHandle);
    if (!target) return null;
    return target.own ? sql`r.workspace_id = ${target.id}` : sql`r.workspace_id = ${target.id} AND r.is_public`;
  }
  if (q.tenantId && q.tenantId !== caller.workspaceId) {
    return UUID.test(q.tenantId) ? sql`r.workspace_id = ${q.tenantId} AND r.is_public` : null;
  }
  await ensureHandle(db, caller.workspaceId);
  return sql`r.workspace_id = ${caller.workspaceId}`;
}

/** GET /repos/: {repos, total}, filtered by kind, text, visibility, archive state and tags, sorted and paged. */
export async function listRepos(db: Sql, caller: Caller, q: RepoFilter): Promise<{ repos: WireRepo[]; total: number }> {
  const scope = await listScope(db, caller, q);
  if (!scope) return { repos: [], total: 0 };
  const where: SqlFragment[] = [scope, sql`r.repo_type = ANY(${q.repoTypes ?? ["prompt"]}::text[])`];
  if (q.query) {
    where.push(
      q.matchPrefix
        ? sql`r.repo_handle ILIKE ${`${likeLiteral(q.query)}%`}`
        : sql`(r.repo_handle ILIKE ${`%${likeLiteral(q.query)}%`} OR coalesce(r.description, '') ILIKE ${`%${likeLiteral(q.query)}%`})`,
    );
  }
  if (q.isPublic !== undefined) where.push(sql`r.is_public = ${q.isPublic}`);
  const archived = q.archived ?? "none";
  if (archived !== "both") where.push(sql`r.is_archived = ${archived === "only"}`);
  if (q.tags?.length) where.push(sql`r.tags @> ${q.tags}::text[]`);
  if (q.hasCommits !== undefined)
    where.push(sql`${raw(q.hasCommits ? "" : "NOT ")}EXISTS (SELECT 1 FROM prompt_commits c WHERE c.repo_id = r.id)`);
  if (q.isLiked !== undefined)
    where.push(
      sql`${raw(q.isLiked ? "" : "NOT ")}EXISTS (SELECT 1 FROM prompt_likes l WHERE l.repo_id = r.id AND l.liker = ${caller.liker})`,
    );
  const filter = join(where, " AND ");
  const order = raw(`${SORT_COLUMN[q.sortField ?? "updated_at"]} ${q.sortDirection === "asc" ? "ASC" : "DESC"}, r.id`);
  const rows = await db.query<RepoRow>(
    sql`${repoSelect(caller.liker)} WHERE ${filter} ORDER BY ${order} LIMIT ${q.limit ?? 100} OFFSET ${q.offset ?? 0}`,
  );
  const [{ total }] = await db.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM prompt_repos r WHERE ${filter}`);
  return { repos: rows.map(repoWire), total };
}

/** GET /repos/{owner}/{repo}: {repo}. */
export async function getRepo(db: Sql, caller: Caller, owner: string, repo: string): Promise<{ repo: WireRepo }> {
  return { repo: repoWire(await findRepo(db, caller, owner, repo, "read")) };
}

/** POST /repos/: a new repo in the caller's workspace; 409 when the name is taken there. */
export async function createRepo(db: Sql, caller: Caller, input: NewRepo): Promise<{ repo: WireRepo }> {
  await ensureHandle(db, caller.workspaceId);
  try {
    await db.prisma.promptRepo.create({
      data: {
        id: randomUUID(),
        workspaceId: caller.workspaceId,
        repoHandle: input.handle,
        repoType: input.repoType ?? "prompt",
        description: input.description ?? null,
        readme: input.readme ?? null,
        tags: input.tags ?? [],
        isPublic: input.isPublic ?? false,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`A prompt, agent or skill named ${JSON.stringify(input.handle)} already exists in this workspace.`);
    throw error;
  }
  return getRepo(db, caller, "-", input.handle);
}

/** PATCH /repos/{owner}/{repo}: changes the given fields of one of the caller's repos. */
export async function updateRepo(db: Sql, caller: Caller, owner: string, repo: string, input: RepoUpdate): Promise<{ repo: WireRepo }> {
  const row = await findRepo(db, caller, owner, repo, "write");
  const data = {
    description: input.description ?? undefined,
    readme: input.readme ?? undefined,
    tags: input.tags ?? undefined,
    isPublic: input.is_public ?? undefined,
    isArchived: input.is_archived ?? undefined,
  };
  if (Object.values(data).every((v) => v === undefined)) {
    throw badRequest("Nothing to update: send at least one of description, readme, tags, is_public, is_archived.");
  }
  await db.prisma.promptRepo.update({ where: { id: row.id }, data: { ...data, updatedAt: new Date() } });
  return getRepo(db, caller, "-", row.repo_handle);
}

/** DELETE /repos/{owner}/{repo}: the repo with its commits, likes and tags. */
export async function deleteRepo(db: Sql, caller: Caller, owner: string, repo: string): Promise<void> {
  const row = await findRepo(db, caller, owner, repo, "write");
  await db.prisma.promptRepo.delete({ where: { id: row.id } });
}

/** POST /likes/{owner}/{repo}: like (idempotent) or unlike a repo the caller can read; {likes}. */
export async function likeRepo(db: Sql, caller: Caller, owner: string, repo: string, liked: boolean): Promise<{ likes: number }> {
  const row = await findRepo(db, caller, owner, repo, "read");
  return db.prisma.$transaction(async (tx) => {
    if (liked) {
      await tx.promptLike.upsert({
        where: { repoId_liker: { repoId: row.id, liker: caller.liker } },
        create: { repoId: row.id, liker: caller.liker, likerWorkspaceId: caller.workspaceId },
        update: {},
      });
    } else {
      await tx.promptLike.deleteMany({ where: { repoId: row.id, liker: caller.liker } });
    }
    const likes = await tx.promptLike.count({ where: { repoId: row.id } });
    await tx.promptRepo.update({ where: { id: row.id }, data: { numLikes: likes } });
    return { likes };
  });
}
