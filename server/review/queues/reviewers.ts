import { z } from "zod";
import type { Sql } from "../../db/client";
import { badRequest } from "../../core/errors";
import { uuid } from "../../core/uuid";
import { assertMayReviewQueue, type Role } from "../../auth/policy";
import { recordAudit } from "../../audit/record";
import { listMembers } from "../../auth/members";
import { loadQueue } from "./queues";
import type { WireQueue } from "./wire";

/** PUT /annotation-queues/{id}/reviewers: the users assigned to review the queue (annotators review only these). */
export const queueReviewersPut = z.object({ user_ids: z.array(uuid).max(500) });

export const wireQueueReviewers = z.object({ queue_id: z.string(), user_ids: z.array(z.string()) });

async function reviewerIds(db: Sql, queueId: string): Promise<string[]> {
  const rows = await db.prisma.annotationQueueReviewer.findMany({
    where: { queueId },
    select: { userId: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => r.userId);
}

export async function listQueueReviewers(db: Sql, workspaceId: string, queueId: string) {
  await loadQueue(db, workspaceId, queueId);
  return { queue_id: queueId, user_ids: await reviewerIds(db, queueId) };
}

/** Replaces the queue's assigned reviewers; each must be a member of the workspace. */
export async function setQueueReviewers(db: Sql, workspaceId: string, queueId: string, userIds: string[]) {
  await loadQueue(db, workspaceId, queueId);
  const wanted = [...new Set(userIds)];
  const members = await db.prisma.membership.findMany({ where: { workspaceId, userId: { in: wanted } }, select: { userId: true } });
  const missing = wanted.filter((id) => !members.some((m) => m.userId === id));
  if (missing.length) throw badRequest(`Not members of this workspace: ${missing.join(", ")}.`);
  await db.prisma.$transaction(async (tx) => {
    const before = (await tx.annotationQueueReviewer.findMany({ where: { queueId }, select: { userId: true } })).map((r) => r.userId);
    await tx.annotationQueueReviewer.deleteMany({ where: { queueId } });
    await tx.annotationQueueReviewer.createMany({ data: wanted.map((userId) => ({ queueId, userId })) });
    await recordAudit(tx, {
      workspaceId,
      action: "annotation_queue.reviewers.set",
      target: { type: "annotation_queue", id: queueId },
      before: { user_ids: before },
      after: { user_ids: wanted },
    });
  });
  return { queue_id: queueId, user_ids: wanted };
}

/**
 * Refuses a caller who may not review this queue: an annotator reviews only the queues it is
 * assigned to, and a queue in reviewer_access_mode "assigned" is reviewed by its assigned reviewers only.
 */
export async function assertReviews(db: Sql, queueId: string, caller: { role: Role; userId?: string | null }): Promise<void> {
  // One read: the queue's access mode with its reviewers.
  const queue = await db.prisma.annotationQueue.findUniqueOrThrow({
    where: { id: queueId },
    select: { reviewerAccessMode: true, reviewers: { select: { userId: true } } },
  });
  const onlyAssigned = queue.reviewerAccessMode === "assigned";
  const assigned = caller.role === "annotator" || onlyAssigned ? queue.reviewers.map((r) => r.userId) : [];
  assertMayReviewQueue(caller.role, caller.userId ?? undefined, assigned, onlyAssigned);
}

/** Whether runs of this queue wait for this user: in reviewer_access_mode "assigned", only for its assigned reviewers. */
export const waitsFor = (queue: Pick<WireQueue, "reviewer_access_mode" | "assigned_reviewers">, userId: string) =>
  queue.reviewer_access_mode !== "assigned" || queue.assigned_reviewers.some((r) => r.id === userId);

/** Which queues a caller's list shows: an annotator (or `assigned_to_me`) sees those it is assigned to; others all. */
export function visibleTo(caller: { role: Role; userId?: string | null }, q: { assigned_to_me?: string }): { assignedTo?: string | null } {
  return caller.role === "annotator" || q.assigned_to_me === "true" ? { assignedTo: caller.userId ?? null } : {};
}

/** The queue page's reviewer picker: the workspace's members, each marked when assigned. */
export async function reviewerChoices(db: Sql, workspaceId: string, queueId: string) {
  const [{ user_ids }, members] = await Promise.all([listQueueReviewers(db, workspaceId, queueId), listMembers(db, workspaceId)]);
  return members.map((m) => ({
    user_id: m.user_id,
    name: m.name || m.email,
    email: m.email,
    role: m.role,
    assigned: user_ids.includes(m.user_id),
  }));
}
