import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { PromptCommitTag } from "../db/generated/client";
import { isoFromDb } from "../core/time";
import { UUID } from "../core/uuid";
import { findRepo, type Caller } from "./access";
import { eventOf, resolveCommit } from "./commits";
import { promptEventHappened } from "./webhooks";

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
    // Prompt webhooks are told about prompts: an agent's or skill's files are no manifest their receivers know.
    if (row.repo_type === "prompt") {
      await promptEventHappened(t, caller.workspaceId, {
        ...eventOf(existed ? "tag:update" : "tag:create", row, commit, caller),
        tag_name: tagName,
      });
    }
    return tagWire(tag);
  });
}
