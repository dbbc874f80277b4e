import { randomUUID } from "node:crypto";
import type { Sql } from "../../db/client";
import { Prisma, type AnnotationQueue } from "../../db/generated/client";
import { badRequest, conflict, isUniqueViolation, notFound } from "../../core/errors";
import { isoFromDb } from "../../core/time";
import { isUuid } from "../../core/uuid";
import { findDataset } from "../../datasets/service";
import { matchingRunIds } from "../../runs/lookup";
import { listFeedbackConfigs } from "../../feedback/configs";
import { addRunsToQueue } from "./items";
import { pairExperiments } from "./pairs";
import type { QueueCreate, QueueListQuery, QueueUpdate, RubricItem } from "./schema";
import type { WireQueue } from "./wire";
import { recordAudit } from "../../audit/record";

/** A queue with its assigned reviewers (LangSmith's `assigned_reviewers`). */
export const withReviewers = {
  reviewers: { orderBy: { createdAt: "asc" }, select: { user: { select: { id: true, email: true, name: true } } } },
} satisfies Prisma.AnnotationQueueInclude;
type QueueWithReviewers = Prisma.AnnotationQueueGetPayload<{ include: typeof withReviewers }>;

/** The queue as the SDKs read it. */
export function queueToWire(q: QueueWithReviewers): WireQueue {
  return {
    id: q.id,
    tenant_id: q.workspaceId,
    name: q.name,
    description: q.description,
    queue_type: q.queueType === "pairwise" ? "pairwise" : "single",
    default_dataset: q.defaultDatasetId,
    num_reviewers_per_item: q.numReviewersPerItem,
    enable_reservations: q.enableReservations,
    reservation_minutes: q.reservationMinutes,
    metadata: q.metadata as Record<string, unknown> | null,
    reviewer_access_mode: q.reviewerAccessMode === "assigned" ? "assigned" : "any",
    assigned_reviewers: q.reviewers.map(({ user }) => ({ id: user.id, email: user.email, name: user.name })),
    run_rule_id: null,
    source_rule_id: null,
    created_at: isoFromDb(q.createdAt)!,
    updated_at: isoFromDb(q.updatedAt)!,
  };
}

/** A queue of the workspace, or a 404 naming it (another workspace's queue is missing here). */
export async function loadQueue(db: Sql, workspaceId: string, id: string): Promise<AnnotationQueue> {
  const queue = isUuid(id) ? await db.prisma.annotationQueue.findFirst({ where: { id, workspaceId } }) : null;
  if (!queue) throw notFound(`Annotation queue ${id} not found.`);
  return queue;
}

/** The rubric with the feedback config each item scores against (the key's config, when it has one). */
async function rubricWithConfigs(db: Sql, workspaceId: string, items: RubricItem[]) {
  if (items.length === 0) return [];
  const configs = await listFeedbackConfigs(db, workspaceId, { key: items.map((i) => i.feedback_key), offset: 0, limit: 1000 });
  const byKey = new Map(configs.map((c) => [c.feedback_key, c]));
  return items.map((item) => ({ ...item, feedback_config: byKey.get(item.feedback_key) ?? null }));
}

/** GET /annotation-queues/{id}: the queue with its instructions and rubric. */
export async function readQueue(db: Sql, workspaceId: string, id: string) {
  const queue = await loadQueue(db, workspaceId, id);
  const reviewers = await db.prisma.annotationQueue.findUniqueOrThrow({ where: { id: queue.id }, include: withReviewers });
  return {
    ...queueToWire(reviewers),
    rubric_instructions: queue.rubricInstructions,
    rubric_items: await rubricWithConfigs(db, workspaceId, queue.rubricItems as RubricItem[]),
  };
}

function checkRubric(items: RubricItem[] | null | undefined): void {
  const keys = new Set<string>();
  for (const item of items ?? []) {
    if (keys.has(item.feedback_key)) throw badRequest(`The rubric names feedback key "${item.feedback_key}" twice.`);
    keys.add(item.feedback_key);
    if (item.regex_validator) {
      try {
        new RegExp(item.regex_validator);
      } catch {
        throw badRequest(`regex_validator of "${item.feedback_key}" is not a valid regular expression.`);
      }
    }
  }
}

async function checkDataset(db: Sql, workspaceId: string, datasetId: string | null | undefined) {
  if (datasetId) await findDataset(db, workspaceId, datasetId);
}

/** POST /annotation-queues; `session_ids` adds those projects' root runs at once. */
export async function createQueue(db: Sql, workspaceId: string, input: QueueCreate): Promise<WireQueue> {
  checkRubric(input.rubric_items);
  await checkDataset(db, workspaceId, input.default_dataset);
  let queue: QueueWithReviewers;
  try {
    queue = await db.prisma.annotationQueue.create({
      include: withReviewers,
      data: {
        id: input.id ?? randomUUID(),
        workspaceId,
        name: input.name,
        queueType: input.queue_type ?? "single",
        description: input.description ?? null,
        rubricInstructions: input.rubric_instructions ?? null,
        rubricItems: (input.rubric_items ?? []) as Prisma.InputJsonArray,
        defaultDatasetId: input.default_dataset ?? null,
        numReviewersPerItem: input.num_reviewers_per_item ?? 1,
        enableReservations: input.enable_reservations ?? true,
        reservationMinutes: input.reservation_minutes ?? 5,
        metadata: (input.metadata as Prisma.InputJsonObject | null | undefined) ?? Prisma.DbNull,
        reviewerAccessMode: input.reviewer_access_mode ?? "any",
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Annotation queue ${input.id} already exists.`);
    throw error;
  }
  if (input.session_ids?.length) await addRunsOfProjects(db, workspaceId, queue, input.session_ids);
  return queueToWire(queue);
}

/**
 * Runs of these projects added to the queue (populate, and create with session_ids): the root runs
 * (an experiment's), or those matching a filter in the filter language; at most 10,000. A pairwise
 * queue pairs two experiments' runs by example instead.
 */
export async function addRunsOfProjects(
  db: Sql,
  workspaceId: string,
  queue: Pick<AnnotationQueue, "id" | "queueType">,
  projectIds: string[],
  only: { filter?: string | null; limit?: number } = {},
) {
  const queueId = queue.id;
  if (queue.queueType === "pairwise") return pairExperiments(db, workspaceId, queueId, projectIds, only.limit);
  const selection = only.filter ? { projectIds, filter: only.filter } : { projectIds, isRoot: true };
  const ids = await matchingRunIds(db, workspaceId, selection, only.limit ?? 10_000);
  return addRunsToQueue(
    db,
    workspaceId,
    queueId,
    ids.map((run_id) => ({ run_id })),
  );
}

/** PATCH /annotation-queues/{id}. Changing the reviewers needed re-decides which runs are done. */
export async function updateQueue(db: Sql, workspaceId: string, id: string, change: QueueUpdate): Promise<WireQueue> {
  await loadQueue(db, workspaceId, id);
  checkRubric(change.rubric_items);
  await checkDataset(db, workspaceId, change.default_dataset);
  const data: Prisma.AnnotationQueueUpdateInput = { updatedAt: new Date() };
  if (change.name) data.name = change.name;
  if (change.description !== undefined) data.description = change.description;
  if (change.rubric_instructions !== undefined) data.rubricInstructions = change.rubric_instructions;
  if (change.rubric_items != null) data.rubricItems = change.rubric_items as Prisma.InputJsonArray;
  if (change.default_dataset !== undefined)
    data.defaultDataset = change.default_dataset ? { connect: { id: change.default_dataset } } : { disconnect: true };
  if (change.enable_reservations != null) data.enableReservations = change.enable_reservations;
  if (change.reservation_minutes != null) data.reservationMinutes = change.reservation_minutes;
  if (change.metadata !== undefined) data.metadata = (change.metadata as Prisma.InputJsonObject | null) ?? Prisma.DbNull;
  if (change.reviewer_access_mode != null) data.reviewerAccessMode = change.reviewer_access_mode;
  const reviewers = change.num_reviewers_per_item;
  if (reviewers != null) data.numReviewersPerItem = reviewers;
  const queue = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.annotationQueue.update({ where: { id }, data, include: withReviewers });
    if (reviewers != null) {
      await tx.annotationQueueRun.updateMany({ where: { queueId: id, completedCount: { gte: reviewers } }, data: { archived: true } });
      await tx.annotationQueueRun.updateMany({ where: { queueId: id, completedCount: { lt: reviewers } }, data: { archived: false } });
    }
    return updated;
  });
  return queueToWire(queue);
}

/** DELETE /annotation-queues/{id}: its runs and reviews go with it; feedback left from it stays. */
export async function deleteQueue(db: Sql, workspaceId: string, id: string): Promise<void> {
  const queue = await loadQueue(db, workspaceId, id);
  await db.prisma.$transaction(async (tx) => {
    await tx.annotationQueue.delete({ where: { id } });
    await recordAudit(tx, {
      workspaceId,
      action: "annotation_queue.delete",
      target: { type: "annotation_queue", id },
      before: { name: queue.name },
    });
  });
}

/**
 * GET /annotation-queues: newest first, each with its number of runs. `assignedTo` (an annotator,
 * or `assigned_to_me`) keeps the queues that user is assigned to review.
 */
export async function listQueues(db: Sql, workspaceId: string, q: QueueListQuery, scope: { assignedTo?: string | null } = {}) {
  const queues = await db.prisma.annotationQueue.findMany({
    where: {
      workspaceId,
      ...(scope.assignedTo !== undefined
        ? { reviewers: { some: { userId: scope.assignedTo ?? "00000000-0000-0000-0000-000000000000" } } }
        : {}),
      ...(q.ids.length ? { id: { in: q.ids } } : {}),
      ...(q.name ? { name: q.name } : {}),
      ...(q.name_contains ? { name: { contains: q.name_contains, mode: "insensitive" as const } } : {}),
      ...(q.dataset_id ? { defaultDatasetId: q.dataset_id } : {}),
      ...(q.queue_type ? { queueType: q.queue_type } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    skip: q.offset,
    take: q.limit,
    include: { ...withReviewers, _count: { select: { runs: true } } },
  });
  return queues.map((queue) => ({ ...queueToWire(queue), total_runs: queue._count.runs }));
}

/** GET /annotation-queues/{runId}/queues: the queues the run is in. */
export async function queuesOfRun(db: Sql, workspaceId: string, runId: string): Promise<WireQueue[]> {
  const queues = await db.prisma.annotationQueue.findMany({
    where: { workspaceId, runs: { some: { runId } } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: withReviewers,
  });
  return queues.map(queueToWire);
}
