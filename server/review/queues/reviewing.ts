import type { Sql } from "../../db/client";
import { Prisma, type AnnotationQueue, type AnnotationQueueRun } from "../../db/generated/client";
import type { ReviewStatus, StatusUpdate } from "./schema";

/**
 * A reviewer's part of a queue. `needs_my_review`: runs not done that they have neither completed
 * nor skipped; `needs_others_review`: runs they did that need more reviewers; `completed`: runs
 * that enough reviewers completed (archived). No status: every run not done.
 */
export function reviewerWhere(
  queueId: string,
  reviewerId: string,
  status: ReviewStatus | "all" | null | undefined,
): Prisma.AnnotationQueueRunWhereInput {
  switch (status) {
    case "needs_my_review":
      return { queueId, archived: false, reviews: { none: { reviewerId } } };
    case "needs_others_review":
      return { queueId, archived: false, reviews: { some: { reviewerId } } };
    case "completed":
      return { queueId, archived: true };
    case "all":
      return { queueId };
    default:
      return { queueId, archived: false };
  }
}

/**
 * The next run for this reviewer, reserved for them for the queue's reservation minutes: the run
 * they already hold, else the oldest run not done that they have not reviewed and nobody else
 * holds. Concurrent reviewers skip each other's rows (FOR UPDATE SKIP LOCKED), so two never get
 * the same run; one reviewer's own concurrent draws queue on a lock of theirs, so they hold one run
 * at a time. Null when nothing is left for them.
 */
export async function nextForReviewer(db: Sql, queue: AnnotationQueue, reviewerId: string): Promise<AnnotationQueueRun | null> {
  const order: Prisma.AnnotationQueueRunOrderByWithRelationInput[] = [{ addedAt: "asc" }, { id: "asc" }];
  if (!queue.enableReservations)
    return db.prisma.annotationQueueRun.findFirst({ where: reviewerWhere(queue.id, reviewerId, "needs_my_review"), orderBy: order });
  return db.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${queue.id}:${reviewerId}`}, 0))`;
    const now = new Date();
    const until = new Date(now.getTime() + queue.reservationMinutes * 60_000);
    const held = await tx.annotationQueueRun.findFirst({
      where: { queueId: queue.id, archived: false, reservedBy: reviewerId, reservedUntil: { gt: now }, reviews: { none: { reviewerId } } },
      orderBy: order,
    });
    if (held) return tx.annotationQueueRun.update({ where: { id: held.id }, data: { reservedUntil: until } });
    const [claimed] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
      UPDATE annotation_queue_runs SET reserved_by = ${reviewerId}, reserved_until = ${until}
      WHERE id = (
        SELECT q.id FROM annotation_queue_runs q
        WHERE q.queue_id = ${queue.id}::uuid AND NOT q.archived
          AND (q.reserved_by IS NULL OR q.reserved_until <= ${now})
          AND NOT EXISTS (SELECT 1 FROM annotation_queue_reviews v WHERE v.queue_run_id = q.id AND v.reviewer_id = ${reviewerId})
        ORDER BY q.added_at, q.id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING id`);
    return claimed ? tx.annotationQueueRun.findUnique({ where: { id: claimed.id } }) : null;
  });
}

/**
 * A reviewer finishes a run: completed counts towards the queue's reviewers per run (the run is
 * archived when enough completed it), skipped does not; either way they never get it again and
 * their reservation ends. Completing twice counts once.
 */
export async function finishReview(
  db: Sql,
  queue: AnnotationQueue,
  item: AnnotationQueueRun,
  reviewerId: string,
  status: "completed" | "skipped",
) {
  return db.prisma.$transaction(async (tx) => {
    const key = { queueRunId_reviewerId: { queueRunId: item.id, reviewerId } };
    const prior = await tx.annotationQueueReview.findUnique({ where: key });
    const counts = status === "completed" && prior?.status !== "completed";
    if (prior?.status === "completed" && status === "skipped") return item;
    await tx.annotationQueueReview.upsert({ where: key, create: { queueRunId: item.id, reviewerId, status }, update: { status } });
    const released = item.reservedBy === reviewerId ? { reservedBy: null, reservedUntil: null } : {};
    const updated = await tx.annotationQueueRun.update({
      where: { id: item.id },
      data: { lastReviewedTime: new Date(), ...released, ...(counts ? { completedCount: { increment: 1 } } : {}) },
    });
    if (updated.completedCount >= queue.numReviewersPerItem && !updated.archived) {
      return tx.annotationQueueRun.update({ where: { id: item.id }, data: { archived: true, reservedBy: null, reservedUntil: null } });
    }
    return updated;
  });
}

/** The reviewer's completion or skip taken back: the run counts one completion less and is open again if that leaves it short. */
export async function withdrawReview(db: Sql, queue: AnnotationQueue, item: AnnotationQueueRun, reviewerId: string) {
  return db.prisma.$transaction(async (tx) => {
    const key = { queueRunId_reviewerId: { queueRunId: item.id, reviewerId } };
    const prior = await tx.annotationQueueReview.findUnique({ where: key });
    if (!prior) return item;
    await tx.annotationQueueReview.delete({ where: key });
    if (prior.status !== "completed") return item;
    const updated = await tx.annotationQueueRun.update({ where: { id: item.id }, data: { completedCount: { decrement: 1 } } });
    return updated.completedCount < queue.numReviewersPerItem && updated.archived
      ? tx.annotationQueueRun.update({ where: { id: item.id }, data: { archived: false } })
      : updated;
  });
}

/** POST /annotation-queues/status/{id} and the items' /status: viewed, or completed by the caller; optionally moved. */
export async function markStatus(db: Sql, queue: AnnotationQueue, item: AnnotationQueueRun, reviewerId: string, change: StatusUpdate) {
  let current = item;
  if (change.status === "completed" || change.status === "skipped")
    current = await finishReview(db, queue, item, reviewerId, change.status);
  if (change.status === "needs_review") current = await withdrawReview(db, queue, item, reviewerId);
  const data: Prisma.AnnotationQueueRunUpdateInput = {};
  if (change.status === "viewed") data.lastReviewedTime = new Date();
  if (change.override_added_at) data.addedAt = change.override_added_at;
  if (Object.keys(data).length) current = await db.prisma.annotationQueueRun.update({ where: { id: item.id }, data });
  return {
    queue_item_id: current.id,
    status: change.status ?? "viewed",
    is_archived: current.archived,
    override_added_at: change.override_added_at?.toISOString(),
  };
}

/** Who completed each of these runs, and who holds each now. */
export async function reviewState(db: Sql, items: AnnotationQueueRun[]) {
  const reviews = await db.prisma.annotationQueueReview.findMany({
    where: { queueRunId: { in: items.map((i) => i.id) }, status: "completed" },
    orderBy: { createdAt: "asc" },
  });
  const now = Date.now();
  return new Map(
    items.map((item) => [
      item.id,
      {
        completed_by: reviews.filter((r) => r.queueRunId === item.id).map((r) => r.reviewerId),
        reserved_by: item.reservedBy && item.reservedUntil && item.reservedUntil.getTime() > now ? [item.reservedBy] : [],
      },
    ]),
  );
}
