import type { Sql } from "../../db/client";
import type { AnnotationQueue, AnnotationQueueRun, Prisma } from "../../db/generated/client";
import { badRequest, notFound } from "../../core/errors";
import { isoFromDb } from "../../core/time";
import { readRuns } from "../../runs/read";
import { itemToWire } from "./items";
import { reviewerWhere, reviewState } from "./reviewing";
import type { ReviewStatus } from "./schema";
import type { QueueRun } from "./wire";

const queueOrder: Prisma.AnnotationQueueRunOrderByWithRelationInput[] = [{ addedAt: "asc" }, { id: "asc" }];

/** Queue runs as whole runs with their place in the queue (LangSmith's RunSchemaWithAnnotationQueueInfo). */
export async function runsWithQueueInfo(db: Sql, workspaceId: string, items: AnnotationQueueRun[]): Promise<QueueRun[]> {
  const [runs, state] = await Promise.all([
    readRuns(
      db,
      workspaceId,
      items.map((i) => i.runId),
    ),
    reviewState(db, items),
  ]);
  const byId = new Map(runs.map((r) => [r.id, r]));
  return items.flatMap((item) => {
    const run = byId.get(item.runId);
    if (!run) return [];
    return [
      {
        ...run,
        queue_run_id: item.id,
        added_at: isoFromDb(item.addedAt),
        effective_added_at: isoFromDb(item.addedAt),
        last_reviewed_time: isoFromDb(item.lastReviewedTime),
        paired_run_id: item.pairedRunId,
        ...state.get(item.id)!,
      },
    ];
  });
}

/** GET /annotation-queues/{id}/runs: in queue order, by the caller's review status (`archived` alone: done runs). */
export async function listQueueRuns(
  db: Sql,
  workspaceId: string,
  queueId: string,
  reviewerId: string,
  q: { status?: ReviewStatus | null; archived?: boolean | null; offset: number; limit: number },
) {
  const status = q.status ?? (q.archived === true ? "completed" : q.archived === false ? null : "all");
  const items = await db.prisma.annotationQueueRun.findMany({
    where: reviewerWhere(queueId, reviewerId, status),
    orderBy: queueOrder,
    skip: q.offset,
    take: q.limit,
  });
  return runsWithQueueInfo(db, workspaceId, items);
}

/** GET /annotation-queues/{id}/run/{index}: the index-th run not yet done, in queue order. */
export async function queueRunAt(db: Sql, workspaceId: string, queue: AnnotationQueue, index: number): Promise<QueueRun> {
  const [item] = await db.prisma.annotationQueueRun.findMany({
    where: { queueId: queue.id, archived: false },
    orderBy: queueOrder,
    skip: index,
    take: 1,
  });
  const [run] = item ? await runsWithQueueInfo(db, workspaceId, [item]) : [];
  if (!run) throw notFound(`Annotation queue ${queue.id} has no run at index ${index}.`);
  return run;
}

/** Runs of a queue in a status (`all` for every run), optionally only those added in a time range. */
export async function countQueueRuns(
  db: Sql,
  queueId: string,
  reviewerId: string,
  status: ReviewStatus | "all" | null | undefined,
  added?: { from?: Date | null; to?: Date | null },
): Promise<number> {
  const where = reviewerWhere(queueId, reviewerId, status);
  if (added?.from || added?.to) where.addedAt = { gte: added.from ?? undefined, lte: added.to ?? undefined };
  return db.prisma.annotationQueueRun.count({ where });
}

/** The platform items' sections: `archived` is what the classic API calls completed. */
export const sectionStatus = (section: string): ReviewStatus | "all" => {
  if (section === "archived" || section === "completed") return "completed";
  if (section === "needs_my_review" || section === "needs_others_review" || section === "all") return section;
  throw badRequest(`Unknown status "${section}": use needs_my_review, needs_others_review, archived or all.`);
};

/** A page cursor: the last item's place in queue order. */
const encodeCursor = (item: AnnotationQueueRun) => Buffer.from(JSON.stringify([item.addedAt.toISOString(), item.id])).toString("base64url");
function decodeCursor(cursor: string): Prisma.AnnotationQueueRunWhereInput {
  try {
    const [addedAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string];
    const at = new Date(addedAt);
    if (Number.isNaN(at.getTime()) || typeof id !== "string") throw new Error();
    return { OR: [{ addedAt: { gt: at } }, { addedAt: at, id: { gt: id } }] };
  } catch {
    throw badRequest("cursor is not one this API handed out.");
  }
}

/** GET /platform/annotation-queues/{id}/items: items of a section in queue order, `{items, next_cursor}` pages. */
export async function listItems(
  db: Sql,
  queueId: string,
  reviewerId: string,
  q: { status: string; cursor?: string; limit: number; min_start_time?: Date | null; max_start_time?: Date | null },
) {
  const where: Prisma.AnnotationQueueRunWhereInput = {
    AND: [
      reviewerWhere(queueId, reviewerId, sectionStatus(q.status)),
      q.cursor ? decodeCursor(q.cursor) : {},
      q.min_start_time || q.max_start_time ? { startTime: { gte: q.min_start_time ?? undefined, lte: q.max_start_time ?? undefined } } : {},
    ],
  };
  const items = await db.prisma.annotationQueueRun.findMany({ where, orderBy: queueOrder, take: q.limit + 1 });
  const page = items.slice(0, q.limit);
  const state = await reviewState(db, page);
  return {
    items: page.map((item) => ({ ...itemToWire(item), ...state.get(item.id)! })),
    next_cursor: items.length > q.limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

/** GET …/items/{id}/placement: the item's section for the caller, its position there, and a cursor that starts at it. */
export async function itemPlacement(db: Sql, item: AnnotationQueueRun, reviewerId: string) {
  const mine = await db.prisma.annotationQueueReview.findUnique({ where: { queueRunId_reviewerId: { queueRunId: item.id, reviewerId } } });
  const section = item.archived ? "archived" : mine ? "needs_others_review" : "needs_my_review";
  const before: Prisma.AnnotationQueueRunWhereInput = {
    AND: [
      reviewerWhere(item.queueId, reviewerId, sectionStatus(section)),
      { OR: [{ addedAt: { lt: item.addedAt } }, { addedAt: item.addedAt, id: { lt: item.id } }] },
    ],
  };
  const position = await db.prisma.annotationQueueRun.count({ where: before });
  const previous = await db.prisma.annotationQueueRun.findFirst({ where: before, orderBy: [{ addedAt: "desc" }, { id: "desc" }] });
  return { section, position, item_type: "RUN" as const, cursor: previous ? encodeCursor(previous) : "" };
}
