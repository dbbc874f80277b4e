import { z } from "zod";
import type { Sql } from "../db/client";
import type { PromptCommit } from "../db/generated/client";
import { AppError, badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { findRepo, type Caller, type RepoRow } from "../prompts/access";
import { canonicalJson, createCommit } from "../prompts/commits";
import { createRepo, updateRepo } from "../prompts/repos";
import { repoHandle } from "../prompts/schema";
import { tagCommit } from "../prompts/tags";
import { commitById, commitOfTag, commitOfVersion, newestCommit, promptVersionsPage, tagsByCommit } from "../prompts/versions";
import { chatMessage, contentOf, manifestOf } from "./prompt-manifest";

/**
 * Langfuse's prompt management (`/api/public/v2/prompts`) over the prompt repository: a prompt is a
 * repo, a version is a commit (its sequence number), a label is a commit tag, and `latest` is
 * always the newest commit. Writes go through the repository's own services (locked pushes, tags,
 * webhooks), so a prompt created here is a hub prompt too.
 */
const label = z
  .string()
  .min(1)
  .max(36)
  .regex(/^[a-z0-9_.-]+$/, "labels may contain only lowercase letters, digits, '_', '-' and '.'");

export const promptCreate = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("chat"),
    name: z.string(),
    prompt: z.array(chatMessage).min(1),
    config: z.unknown().optional(),
    labels: z.array(label).nullish(),
    tags: z.array(z.string().min(1).max(128)).max(100).nullish(),
    commitMessage: z.string().max(10_000).nullish(),
  }),
  z.looseObject({
    type: z.literal("text").default("text"),
    name: z.string(),
    prompt: z.string(),
    config: z.unknown().optional(),
    labels: z.array(label).nullish(),
    tags: z.array(z.string().min(1).max(128)).max(100).nullish(),
    commitMessage: z.string().max(10_000).nullish(),
  }),
]);
export type PromptCreate = z.infer<typeof promptCreate>;

export const promptQuery = z.looseObject({
  version: z.coerce.number().int().min(1).optional(),
  label: z.string().min(1).optional(),
});

export const promptListQuery = z.looseObject({
  name: z.string().optional(),
  label: z.string().optional(),
  tag: z.string().optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const promptLabelsUpdate = z.looseObject({ newLabels: z.array(label) });

export interface LangfusePrompt {
  id: string;
  name: string;
  version: number;
  type: "text" | "chat";
  prompt: unknown;
  config: unknown;
  labels: string[];
  tags: string[];
  commitMessage: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  projectId: string;
  resolutionGraph: null;
}

async function promptWire(db: Sql, repo: RepoRow, commit: PromptCommit): Promise<LangfusePrompt> {
  const content = contentOf(commit.manifest);
  const latest = await newestCommit(db, repo.id);
  const labels = (await tagsByCommit(db, repo.id)).get(commit.id) ?? [];
  return {
    id: commit.id,
    name: repo.repo_handle,
    version: commit.version,
    type: content.type,
    prompt: content.prompt,
    config: content.config ?? {},
    labels: latest?.id === commit.id ? [...labels.filter((l) => l !== "latest"), "latest"] : labels,
    tags: repo.tags ?? [],
    commitMessage: commit.description,
    createdAt: isoFromDb(commit.createdAt)!,
    updatedAt: isoFromDb(commit.createdAt)!,
    createdBy: "API",
    projectId: repo.workspace_id,
    resolutionGraph: null,
  };
}

async function promptRepo(db: Sql, caller: Caller, name: string): Promise<RepoRow> {
  const repo = await findRepo(db, caller, "-", name, "read").catch((error: unknown) => {
    throw error instanceof AppError && error.status === 404 ? notFound(`Prompt not found: ${JSON.stringify(name)}.`) : error;
  });
  if (repo.repo_type !== "prompt") throw notFound(`${JSON.stringify(name)} is an ${repo.repo_type}, not a prompt.`);
  return repo;
}

/** GET /api/public/v2/prompts/{name}: by `version`, else `label` (`production` when neither is given; `latest` is the newest). */
export async function getLangfusePrompt(db: Sql, caller: Caller, name: string, q: z.infer<typeof promptQuery>): Promise<LangfusePrompt> {
  if (q.version !== undefined && q.label !== undefined) throw badRequest("Give either version or label, not both.");
  const repo = await promptRepo(db, caller, name);
  const label = q.label ?? "production";
  let commit: PromptCommit | null;
  if (q.version !== undefined) commit = await commitOfVersion(db, repo.id, q.version);
  else if (label === "latest") commit = await newestCommit(db, repo.id);
  else commit = await commitOfTag(db, repo.id, label);
  if (!commit) {
    const which = q.version !== undefined ? `version ${q.version}` : `label ${JSON.stringify(label)}`;
    throw notFound(`Prompt ${JSON.stringify(name)} has no ${which}.`);
  }
  return promptWire(db, repo, commit);
}

async function applyLabels(db: Sql, caller: Caller, name: string, commitId: string, labels: string[]): Promise<void> {
  for (const l of new Set(labels)) if (l !== "latest") await tagCommit(db, caller, "-", name, l, commitId);
}

/**
 * POST /api/public/v2/prompts: a new version (a commit) of the prompt, creating the prompt on first
 * use; `labels` are put on it (moving them from older versions), `tags` replace the prompt's tags.
 * Content equal to the newest version adds no commit: that version gets the labels.
 */
export async function createLangfusePrompt(db: Sql, caller: Caller, input: PromptCreate): Promise<LangfusePrompt> {
  const handle = repoHandle.safeParse(input.name);
  if (!handle.success) throw badRequest(`Invalid prompt name ${JSON.stringify(input.name)}: ${handle.error.issues[0]?.message}.`);
  const name = handle.data;
  const existing = await findRepo(db, caller, "-", name, "write").catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  });
  if (!existing) {
    await createRepo(db, caller, { handle: name, tags: input.tags ?? [] }).catch((error: unknown) => {
      if (!(error instanceof AppError && error.status === 409)) throw error; // created meanwhile
    });
  } else if (input.tags && canonicalJson([...input.tags].sort()) !== canonicalJson([...existing.tags].sort())) {
    await updateRepo(db, caller, "-", name, { tags: input.tags });
  }
  const repo = await promptRepo(db, caller, name);
  const manifest = manifestOf({ type: input.type, prompt: input.prompt, config: input.config ?? {} });
  const latest = await newestCommit(db, repo.id);
  const commitId =
    latest && canonicalJson(latest.manifest) === canonicalJson(manifest)
      ? latest.id
      : (await createCommit(db, caller, "-", name, { manifest, description: input.commitMessage ?? null })).commit.id;
  await applyLabels(db, caller, name, commitId, input.labels ?? []);
  return promptWire(db, repo, await commitById(db, commitId));
}

/** PATCH /api/public/v2/prompts/{name}/versions/{version}: puts `newLabels` on that version. */
export async function labelLangfusePrompt(
  db: Sql,
  caller: Caller,
  name: string,
  version: number,
  newLabels: string[],
): Promise<LangfusePrompt> {
  const repo = await findRepo(db, caller, "-", name, "write");
  const commit = await commitOfVersion(db, repo.id, version);
  if (!commit) throw notFound(`Prompt ${JSON.stringify(name)} has no version ${version}.`);
  await applyLabels(db, caller, name, commit.id, newLabels);
  return promptWire(db, repo, commit);
}

/** GET /api/public/v2/prompts: the workspace's prompts with their versions and labels, by name. */
export async function listLangfusePrompts(db: Sql, caller: Caller, q: z.infer<typeof promptListQuery>) {
  const { total, repos } = await promptVersionsPage(
    db,
    caller.workspaceId,
    { name: q.name, tag: q.tag, commitTag: q.label && q.label !== "latest" ? q.label : undefined },
    { skip: (q.page - 1) * q.limit, take: q.limit },
  );
  // Only the newest version's manifest says the prompt's type and config.
  const data = repos.map((r) => {
    const content = contentOf(r.newestManifest);
    return {
      name: r.handle,
      type: content.type,
      versions: r.versions,
      labels: [...new Set([...r.commitTags, "latest"])].sort(),
      tags: r.tags,
      lastUpdatedAt: isoFromDb(r.updatedAt)!,
      lastConfig: content.config ?? {},
    };
  });
  return { data, meta: { page: q.page, limit: q.limit, totalItems: total, totalPages: Math.ceil(total / q.limit) } };
}
