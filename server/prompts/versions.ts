import type { Sql } from "../db/client";
import type { PromptCommit } from "../db/generated/client";

/**
 * Reads of a repository's versions (its commits by sequence number) and their tags, for adapters
 * that speak another tool's prompt API (server/langfuse/prompts.ts): the prompt tables stay this
 * domain's own.
 */

/** Each commit's tags, by commit id (names in order). */
export async function tagsByCommit(db: Sql, repoId: string): Promise<Map<string, string[]>> {
  const tags = await db.prisma.promptCommitTag.findMany({
    where: { repoId },
    select: { commitId: true, tagName: true },
    orderBy: { tagName: "asc" },
  });
  const out = new Map<string, string[]>();
  for (const t of tags) out.set(t.commitId, [...(out.get(t.commitId) ?? []), t.tagName]);
  return out;
}

export const newestCommit = (db: Sql, repoId: string): Promise<PromptCommit | null> =>
  db.prisma.promptCommit.findFirst({ where: { repoId }, orderBy: { version: "desc" } });

export const commitOfVersion = (db: Sql, repoId: string, version: number): Promise<PromptCommit | null> =>
  db.prisma.promptCommit.findFirst({ where: { repoId, version } });

export const commitById = (db: Sql, id: string): Promise<PromptCommit> => db.prisma.promptCommit.findUniqueOrThrow({ where: { id } });

export async function commitOfTag(db: Sql, repoId: string, tagName: string): Promise<PromptCommit | null> {
  const tag = await db.prisma.promptCommitTag.findUnique({ where: { repoId_tagName: { repoId, tagName } }, include: { commit: true } });
  return tag?.commit ?? null;
}

/** A page of a workspace's prompts (not agents or skills) that have a version, by name, with their versions, tags and newest manifest. */
export async function promptVersionsPage(
  db: Sql,
  workspaceId: string,
  filter: { name?: string; tag?: string; commitTag?: string },
  page: { skip: number; take: number },
) {
  const where = {
    workspaceId,
    repoType: "prompt",
    commits: { some: {} },
    ...(filter.name ? { repoHandle: filter.name } : {}),
    ...(filter.tag ? { tags: { has: filter.tag } } : {}),
    ...(filter.commitTag ? { commitTags: { some: { tagName: filter.commitTag } } } : {}),
  };
  const [total, repos] = await Promise.all([
    db.prisma.promptRepo.count({ where }),
    db.prisma.promptRepo.findMany({
      where,
      orderBy: { repoHandle: "asc" },
      ...page,
      include: {
        commits: { select: { id: true, version: true }, orderBy: { version: "asc" } },
        commitTags: { select: { tagName: true } },
      },
    }),
  ]);
  const newest = await db.prisma.promptCommit.findMany({
    where: { id: { in: repos.map((r) => r.commits[r.commits.length - 1].id) } },
    select: { id: true, manifest: true },
  });
  const manifests = new Map(newest.map((c) => [c.id, c.manifest]));
  return {
    total,
    repos: repos.map((r) => ({
      handle: r.repoHandle,
      tags: r.tags,
      updatedAt: r.updatedAt,
      versions: r.commits.map((c) => c.version),
      commitTags: r.commitTags.map((t) => t.tagName),
      newestManifest: manifests.get(r.commits[r.commits.length - 1].id),
    })),
  };
}
