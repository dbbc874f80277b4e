import { randomUUID } from "node:crypto";
import type { Sql } from "../../db/client";
import { runProjectsAndStarts } from "../../runs/lookup";
import type { AnnotationQueueRun, Prisma } from "../../db/generated/client";
import { badRequest, notFound } from "../../core/errors";
import { isoFromDb } from "../../core/time";
import { isUuid } from "../../core/uuid";
import type { QueueRunUpdate, RunKey } from "./schema";
import type { WireItem } from "./wire";

/** A run in a queue as the SDKs read it back (a queue run, or a platform item). */
export function itemToWire(item: AnnotationQueueRun): WireItem {
  return {
    id: item.id,
    queue_id: item.queueId,
    run_id: item.runId,
    item_type: "RUN" as const,
    project_id: item.projectId,
    start_time: isoFromDb(item.startTime)!,
    added_at: isoFromDb(item.addedAt)!,
    last_reviewed_time: isoFromDb(item.lastReviewedTime),
    source_proposed_example_id: item.sourceProposedExampleId,
    paired_run_id: item.pairedRunId,
  };
}

type ItemKey = Pick<RunKey, "run_id" | "source_proposed_example_id" | "paired_run_id">;

/** A pairwise queue's items are pairs (run A, run B); a single-run queue's are runs. */
function checkPairs(queueType: string, keys: ItemKey[]): void {
  if (queueType === "pairwise") {
    const unpaired = keys.find((k) => !k.paired_run_id || k.paired_run_id === k.run_id);
    if (unpaired)
      throw badRequest(
        `A pairwise queue's items are two runs: give run ${unpaired.run_id} a paired_run_id (another run) to compare it with.`,
      );
  } else if (keys.some((k) => k.paired_run_id)) {
    throw badRequest("paired_run_id is only for pairwise queues (queue_type: pairwise).");
  }
}

/**
 * Adds runs of the workspace to a queue, by id or by key (with its run B in a pairwise queue); a
 * run already there keeps its place. Answers every requested run's item. Runs the workspace does
 * not have are a 404 naming them, and then nothing is added.
 */
export async function addRunsToQueue(db: Sql, workspaceId: string, queueId: string, keys: ItemKey[]): Promise<WireItem[]> {
  if (keys.length === 0) return [];
  const queue = await db.prisma.annotationQueue.findUniqueOrThrow({ where: { id: queueId }, select: { queueType: true } });
  checkPairs(queue.queueType, keys);
  const ids = [...new Set(keys.map((k) => k.run_id))];
  const wanted = [...new Set([...ids, ...keys.flatMap((k) => (k.paired_run_id ? [k.paired_run_id] : []))])];
  const found = await runProjectsAndStarts(db, workspaceId, wanted);
  if (found.length < wanted.length) {
    const present = new Set(found.map((r) => r.id));
    const missing = wanted.filter((id) => !present.has(id));
    throw notFound(
      `Runs not found in this workspace: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""}.`,
    );
  }
  const own = new Set(ids);
  const runs = found.filter((r) => own.has(r.id));
  const order = new Map(ids.map((id, i) => [id, i]));
  const proposed = new Map(keys.map((k) => [k.run_id, k.source_proposed_example_id ?? null]));
  const paired = new Map(keys.map((k) => [k.run_id, k.paired_run_id ?? null]));
  // One clock for the batch; the order given is the review order.
  const start = Date.now();
  await db.prisma.annotationQueueRun.createMany({
    data: runs
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
      .map((run, i) => ({
        id: randomUUID(),
        queueId,
        workspaceId,
        runId: run.id,
        projectId: run.projectId,
        startTime: run.startTime,
        sourceProposedExampleId: proposed.get(run.id) ?? null,
        pairedRunId: paired.get(run.id) ?? null,
        addedAt: new Date(start + i),
      })),
    skipDuplicates: true,
  });
  const items = await db.prisma.annotationQueueRun.findMany({
    where: { queueId, runId: { in: ids } },
    orderBy: [{ addedAt: "asc" }, { id: "asc" }],
  });
  return items.map(itemToWire);
}

/** A run in the queue named by its item id or by its run id (the SDKs pass either). */
export async function loadItem(db: Sql, queueId: string, id: string): Promise<AnnotationQueueRun> {
  const item = isUuid(id) ? await db.prisma.annotationQueueRun.findFirst({ where: { queueId, OR: [{ id }, { runId: id }] } }) : null;
  if (!item) throw notFound(`Run ${id} is not in annotation queue ${queueId}.`);
  return item;
}

/** An item of a queue of the workspace, by its own id (the status and placement paths name no queue). */
export async function loadItemOfWorkspace(db: Sql, workspaceId: string, id: string): Promise<AnnotationQueueRun> {
  const item = isUuid(id) ? await db.prisma.annotationQueueRun.findFirst({ where: { id, workspaceId } }) : null;
  if (!item) throw notFound(`Annotation queue item ${id} not found.`);
  return item;
}

/** PATCH a queue run: move it (added_at) or mark when it was last looked at. */
export async function updateItem(db: Sql, item: AnnotationQueueRun, change: QueueRunUpdate): Promise<WireItem> {
  const data: Prisma.AnnotationQueueRunUpdateInput = {};
  if (change.added_at) data.addedAt = change.added_at;
  if (change.last_reviewed_time) data.lastReviewedTime = change.last_reviewed_time;
  return itemToWire(await db.prisma.annotationQueueRun.update({ where: { id: item.id }, data }));
}

/** Removes runs from a queue: these ones, or all but some. Answers how many left. */
export async function removeRuns(
  db: Sql,
  queueId: string,
  which: { run_ids?: string[] | null; delete_all?: boolean; exclude_run_ids?: string[] | null; item_ids?: string[] },
): Promise<number> {
  const where: Prisma.AnnotationQueueRunWhereInput = which.delete_all
    ? { queueId, runId: { notIn: which.exclude_run_ids ?? [] } }
    : { queueId, OR: [{ runId: { in: which.run_ids ?? [] } }, { id: { in: which.item_ids ?? [] } }] };
  const { count } = await db.prisma.annotationQueueRun.deleteMany({ where });
  return count;
}
