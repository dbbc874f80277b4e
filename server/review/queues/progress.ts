import type { Sql } from "../../db/client";
import type { Run } from "../../db/generated/client";
import { apiKeyNames } from "../../auth/api-keys";
import { runsByIds } from "../../runs/lookup";
import type { Role } from "../../auth/policy";
import { assertReviews, visibleTo, waitsFor } from "./reviewers";
import { isUuid } from "../../core/uuid";
import { readExamples } from "../../datasets/examples";
import { reviewsOnRun } from "../feedback";
import { loadItem } from "./items";
import { listQueues, loadQueue, readQueue } from "./queues";
import { runsWithQueueInfo } from "./reads";
import { choicesOf } from "./preferences";
import { nextForReviewer } from "./reviewing";
import type { QueueListQuery } from "./schema";

/**
 * Display names of reviewers: members' names (or emails); a service key that reviewed (through the
 * SDK's status paths) by its description, else its prefix.
 */
export async function reviewerNames(db: Sql, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
  const uuids = ids.filter(isUuid);
  const [users, keys] = await Promise.all([
    db.prisma.user.findMany({ where: { id: { in: uuids } }, select: { id: true, name: true, email: true } }),
    apiKeyNames(db, workspaceId, uuids),
  ]);
  const names = new Map([
    ...users.map((u) => [u.id, u.name || u.email] as const),
    ...keys.map((k) => [k.id, `${k.description.trim() || `${k.prefix}…`} (API key)`] as const),
  ]);
  return new Map(ids.map((id) => [id, names.get(id) ?? "a deleted API key"]));
}

/** The queues page: each queue with its runs done out of its runs, and how many wait for the viewer. */
export async function queuesWithProgress(db: Sql, workspaceId: string, userId: string, role: Role, q: QueueListQuery) {
  const queues = await listQueues(db, workspaceId, q, visibleTo({ role, userId }, q));
  const ids = queues.map((queue) => queue.id);
  const [done, reviewedByMe] = await Promise.all([
    db.prisma.annotationQueueRun.groupBy({ by: ["queueId"], where: { queueId: { in: ids }, archived: true }, _count: { _all: true } }),
    db.prisma.annotationQueueRun.groupBy({
      by: ["queueId"],
      where: { queueId: { in: ids }, archived: false, reviews: { some: { reviewerId: userId } } },
      _count: { _all: true },
    }),
  ]);
  const count = (rows: typeof done, id: string) => rows.find((r) => r.queueId === id)?._count._all ?? 0;
  return queues.map((queue) => {
    const completed = count(done, queue.id);
    const waiting = waitsFor(queue, userId) ? queue.total_runs - completed - count(reviewedByMe, queue.id) : 0;
    return { ...queue, completed, needs_my_review: waiting };
  });
}

/** One queue with its rubric and progress: runs done, waiting for the viewer, and each reviewer's completions. */
export async function queueOverview(db: Sql, workspaceId: string, userId: string, queueId: string) {
  const queue = await readQueue(db, workspaceId, queueId);
  const [total, completed, mine, reviews] = await Promise.all([
    db.prisma.annotationQueueRun.count({ where: { queueId } }),
    db.prisma.annotationQueueRun.count({ where: { queueId, archived: true } }),
    db.prisma.annotationQueueRun.count({ where: { queueId, archived: false, reviews: { none: { reviewerId: userId } } } }),
    db.prisma.annotationQueueReview.groupBy({ by: ["reviewerId", "status"], where: { queueRun: { queueId } }, _count: { _all: true } }),
  ]);
  const names = await reviewerNames(db, workspaceId, [...new Set(reviews.map((r) => r.reviewerId))]);
  const reviewers = [...names].map(([id, name]) => ({
    id,
    name,
    completed: reviews.find((r) => r.reviewerId === id && r.status === "completed")?._count._all ?? 0,
    skipped: reviews.find((r) => r.reviewerId === id && r.status === "skipped")?._count._all ?? 0,
  }));
  return {
    ...queue,
    progress: {
      total,
      completed,
      needs_my_review: waitsFor(queue, userId) ? mine : 0,
      reviewers: reviewers.sort((a, b) => b.completed - a.completed),
    },
  };
}

type PairedRun = { id: string; name: string; run_type: string; input_preview: string | null; output_preview: string | null };

/**
 * The queue's items for its page: name, one-line previews, done or not, and who completed each. A
 * pairwise queue's item is its two runs: run B (`paired`) beside run A.
 */
export async function queueItemsPage(db: Sql, workspaceId: string, queueId: string, page: { offset: number; limit: number }) {
  await loadQueue(db, workspaceId, queueId);
  const summary = { id: true, name: true, runType: true, inputPreview: true, outputPreview: true, status: true } as const;
  const items = await db.prisma.annotationQueueRun.findMany({
    where: { queueId },
    orderBy: [{ archived: "asc" }, { addedAt: "asc" }, { id: "asc" }],
    skip: page.offset,
    take: page.limit,
    include: { run: { select: summary }, reviews: { where: { status: "completed" }, select: { reviewerId: true } } },
  });
  const pairedIds = items.flatMap((i) => (i.pairedRunId ? [i.pairedRunId] : []));
  const [names, paired] = await Promise.all([
    reviewerNames(db, workspaceId, [...new Set(items.flatMap((i) => i.reviews.map((r) => r.reviewerId)))]),
    runsByIds<PairedRun>(db, workspaceId, pairedIds, ["name", "run_type", "input_preview", "output_preview"]),
  ]);
  const runB = new Map(
    paired.map((r) => [r.id, { ...r, runType: r.run_type, inputPreview: r.input_preview, outputPreview: r.output_preview }]),
  );
  const preview = (run: Pick<Run, "id" | "name" | "runType" | "inputPreview" | "outputPreview">) => ({
    run_id: run.id,
    name: run.name,
    run_type: run.runType,
    input_preview: run.inputPreview,
    output_preview: run.outputPreview,
  });
  return items.map((item) => {
    const b = item.pairedRunId ? runB.get(item.pairedRunId) : undefined;
    return {
      id: item.id,
      project_id: item.projectId,
      ...preview(item.run),
      /** Run B of a pairwise item (null when it was deleted, or in a single-run queue). */
      paired: b ? preview(b) : null,
      paired_run_id: item.pairedRunId,
      added_at: item.addedAt.toISOString(),
      done: item.archived,
      completed_by: item.reviews.map((r) => names.get(r.reviewerId)!),
    };
  });
}

/**
 * A run to review, whole, with the run's reference outputs when it came from an experiment, and
 * the feedback already on it (the reviewer's own answers; others' only once they have submitted).
 * `itemId` re-opens one the reviewer saw before; else the next one is reserved for them.
 */
export async function reviewRun(db: Sql, workspaceId: string, userId: string, role: Role, queueId: string, itemId?: string) {
  const queue = await loadQueue(db, workspaceId, queueId);
  await assertReviews(db, queue.id, { role, userId });
  const item = itemId ? await loadItem(db, queueId, itemId) : await nextForReviewer(db, queue, userId);
  if (!item) return null;
  const [run] = await runsWithQueueInfo(db, workspaceId, [item]);
  if (!run) return null;
  // A pairwise item's run B, with the same queue state as run A.
  const [paired] = item.pairedRunId
    ? await runsWithQueueInfo(db, workspaceId, [{ ...item, runId: item.pairedRunId, pairedRunId: item.runId }])
    : [null];
  const [reference, mine, feedback] = await Promise.all([
    run.reference_example_id ? readExamples(db, workspaceId, [run.reference_example_id]).then(([example]) => example) : null,
    db.prisma.annotationQueueReview.findUnique({ where: { queueRunId_reviewerId: { queueRunId: item.id, reviewerId: userId } } }),
    reviewsOnRun(db, workspaceId, userId, run.id, null),
  ]);
  const fromQueue = feedback.filter(
    (f) => (f.feedback_source as { metadata?: { annotation_queue_id?: string } } | null)?.metadata?.annotation_queue_id === queueId,
  );
  return {
    item_id: item.id,
    queue_type: queue.queueType === "pairwise" ? ("pairwise" as const) : ("single" as const),
    run,
    paired_run: paired ?? null,
    reference_outputs: (reference?.outputs as Record<string, unknown> | null) ?? null,
    my_status: (mine?.status as "completed" | "skipped" | undefined) ?? null,
    my_answers: fromQueue.filter((f) => f.mine).map((f) => ({ key: f.key, score: f.score, value: f.value, comment: f.comment })),
    my_preferences: item.pairedRunId ? choicesOf(fromQueue.filter((f) => f.mine)) : [],
    others:
      mine?.status === "completed"
        ? fromQueue
            .filter((f) => !f.mine)
            .map((f) => ({ key: f.key, score: f.score, value: f.value, comment: f.comment, author: f.author?.name ?? "someone" }))
        : [],
  };
}
