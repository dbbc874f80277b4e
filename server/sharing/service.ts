import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isUniqueViolation, notFound } from "../core/errors";
import { isUuid } from "../core/uuid";
import { hashToken, newShareToken, sealToken, unsealToken } from "../core/tokens";
import { threadHasRuns, traceOfRun, tracesOfRuns } from "../runs/lookup";

export type ShareKind = "run" | "thread" | "dataset";

const LABEL: Record<ShareKind, string> = { run: "Run", thread: "Thread", dataset: "Dataset" };

/** A share link as the SDKs read it: the token and the id of what it shares. */
export const wireShareLink = z.object({ share_token: z.string(), run_id: z.string().optional(), dataset_id: z.string().optional() });
export type ShareLink = z.infer<typeof wireShareLink>;

/** A thread's share link; `{}` when it is not shared. */
export const wireThreadShare = z.object({ share_token: z.string().optional() });

/** The share schema the SDKs read: the token and the id of what it shares. */
const link = (kind: ShareKind, id: string, token: string): ShareLink =>
  kind === "run" ? { run_id: id, share_token: token } : { dataset_id: id, share_token: token };

/**
 * What a share link points at: for a run, its trace (stored by the trace's id, so any run of the
 * trace gives the same link, as LangSmith does); for a dataset, the dataset. Null when the
 * workspace has no such run or dataset.
 */
async function shareTarget(db: Sql, workspaceId: string, kind: ShareKind, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  if (kind === "run") return traceOfRun(db, workspaceId, id);
  const [dataset] = await db.query(sql`SELECT 1 FROM datasets WHERE id = ${id} AND workspace_id = ${workspaceId}`);
  return dataset ? id : null;
}

async function targetOrNotFound(db: Sql, workspaceId: string, kind: ShareKind, id: string): Promise<string> {
  const target = await shareTarget(db, workspaceId, kind, id);
  if (!target) throw notFound(`${LABEL[kind]} ${id} not found.`);
  return target;
}

async function activeToken(db: Sql, workspaceId: string, kind: ShareKind, id: string, key: string | null = null): Promise<string | null> {
  const row = await db.prisma.share.findFirst({
    where: { workspaceId, resourceType: kind, resourceId: id, resourceKey: key, revokedAt: null },
    select: { tokenSealed: true },
  });
  return row ? unsealToken(row.tokenSealed) : null;
}

/** The active token of a target, or a new one. A concurrent request may store one first: everyone gets the stored one. */
async function tokenFor(db: Sql, workspaceId: string, kind: ShareKind, target: string, key: string | null = null): Promise<string> {
  const existing = await activeToken(db, workspaceId, kind, target, key);
  if (existing) return existing;
  const token = newShareToken();
  await db.prisma.share
    .create({
      data: {
        id: randomUUID(),
        workspaceId,
        resourceType: kind,
        resourceId: target,
        resourceKey: key,
        tokenHash: hashToken(token),
        tokenSealed: sealToken(token),
      },
    })
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
  return (await activeToken(db, workspaceId, kind, target, key))!;
}

/**
 * PUT /{runs|datasets}/{id}/share: makes a public link. Sharing again returns the same link
 * until it is revoked; the token a client proposes is ignored so every link is server-random.
 */
export async function share(db: Sql, workspaceId: string, kind: ShareKind, id: string): Promise<ShareLink> {
  return link(kind, id, await tokenFor(db, workspaceId, kind, await targetOrNotFound(db, workspaceId, kind, id)));
}

/** GET .../share: the active link, or null (what the SDKs read as "not shared"). */
export async function readShare(db: Sql, workspaceId: string, kind: ShareKind, id: string): Promise<ShareLink | null> {
  const token = await activeToken(db, workspaceId, kind, await targetOrNotFound(db, workspaceId, kind, id));
  return token ? link(kind, id, token) : null;
}

/** DELETE .../share: the link stops working at once (for the whole trace). Unsharing twice is fine. */
export async function unshare(db: Sql, workspaceId: string, kind: ShareKind, id: string): Promise<void> {
  const target = await targetOrNotFound(db, workspaceId, kind, id);
  await db.prisma.share.updateMany({
    where: { workspaceId, resourceType: kind, resourceId: target, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

export interface SharedResource {
  kind: ShareKind;
  workspaceId: string;
  resourceId: string;
  /** A shared thread's id. */
  resourceKey?: string | null;
}

/** The resource behind a public token; unknown, revoked or of another kind → 404. */
export async function resolveShare(db: Sql, token: string, kind?: ShareKind): Promise<SharedResource> {
  const row = await db.prisma.share.findFirst({ where: { tokenHash: hashToken(token), revokedAt: null } });
  if (!row || (kind && row.resourceType !== kind)) throw notFound("This shared link does not exist or was revoked.");
  const shared: SharedResource = { kind: row.resourceType as ShareKind, workspaceId: row.workspaceId, resourceId: row.resourceId };
  return row.resourceKey === null ? shared : { ...shared, resourceKey: row.resourceKey };
}

/** The traces of several runs of the workspace, looked up at once; a run it does not have is a 404. */
async function tracesOf(db: Sql, workspaceId: string, runIds: string[]): Promise<Map<string, string>> {
  const traces = await tracesOfRuns(db, workspaceId, runIds);
  const missing = runIds.find((id) => !traces.has(id));
  if (missing !== undefined) throw notFound(`Run ${missing} not found.`);
  return traces;
}

/** Shares several runs at once (the runs table's bulk action): one link per run, in the order given; runs of one trace share it. */
export async function shareRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<ShareLink[]> {
  const traces = await tracesOf(db, workspaceId, runIds);
  const tokens = new Map<string, string>();
  for (const trace of new Set(traces.values())) tokens.set(trace, await tokenFor(db, workspaceId, "run", trace));
  return runIds.map((id) => link("run", id, tokens.get(traces.get(id)!)!));
}

/** Revokes the links of several runs' traces at once. */
export async function unshareRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<void> {
  const traces = [...new Set((await tracesOf(db, workspaceId, runIds)).values())];
  await db.prisma.share.updateMany({
    where: { workspaceId, resourceType: "run", resourceId: { in: traces }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** A thread of a project of the workspace (some run carries its id there), or a 404. */
async function threadOrNotFound(db: Sql, workspaceId: string, projectId: string, threadId: string): Promise<void> {
  if (!(await threadHasRuns(db, workspaceId, projectId, threadId))) throw notFound(`Thread ${threadId} not found in project ${projectId}.`);
}

/** POST /api/v2/threads/{id}/share (the client's `threads.share.create`): the thread's public link, the same until revoked. */
export async function shareThread(db: Sql, workspaceId: string, projectId: string, threadId: string): Promise<{ share_token: string }> {
  await threadOrNotFound(db, workspaceId, projectId, threadId);
  return { share_token: await tokenFor(db, workspaceId, "thread", projectId, threadId) };
}

/** GET .../share: the thread's active link; `{}` when it is not shared. */
export async function readThreadShare(
  db: Sql,
  workspaceId: string,
  projectId: string,
  threadId: string,
): Promise<{ share_token?: string }> {
  await threadOrNotFound(db, workspaceId, projectId, threadId);
  const token = await activeToken(db, workspaceId, "thread", projectId, threadId);
  return token ? { share_token: token } : {};
}

/** DELETE .../share: the thread's link stops working at once. */
export async function unshareThread(db: Sql, workspaceId: string, projectId: string, threadId: string): Promise<void> {
  await db.prisma.share.updateMany({
    where: { workspaceId, resourceType: "thread", resourceId: projectId, resourceKey: threadId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
