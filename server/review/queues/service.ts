import type { Identity } from "../../auth/identity";
import type { Sql } from "../../db/client";
import { notFound } from "../../core/errors";
import { exportQueue } from "./export";
import { addRunsToQueue, loadItem, loadItemOfWorkspace, removeRuns, updateItem } from "./items";
import { addRunsOfProjects, loadQueue } from "./queues";
import { extendTraces } from "../../runs/retention";
import { countQueueRuns, itemPlacement, listItems, listQueueRuns, queueRunAt, sectionStatus } from "./reads";
import { markStatus } from "./reviewing";
import { assertReviews } from "./reviewers";
import type { QueueRunUpdate, ReviewStatus, RunKey, StatusUpdate } from "./schema";

/**
 * The REST use cases of annotation queues, each checking the queue belongs to the caller's
 * workspace first. The reviewer is the signed-in user, or the API key's owner (else the key).
 */
export const reviewerOf = (identity: Identity): string => identity.userId ?? identity.apiKeyId ?? "anonymous";

export async function addRuns(
  db: Sql,
  workspaceId: string,
  queueId: string,
  keys: Pick<RunKey, "run_id" | "source_proposed_example_id">[],
  options: { extendTraceRetention?: boolean } = {},
) {
  await loadQueue(db, workspaceId, queueId);
  const items = await addRunsToQueue(db, workspaceId, queueId, keys);
  if (options.extendTraceRetention)
    await extendTraces(
      db,
      workspaceId,
      items.map((item) => item.run_id),
    );
  return items;
}

/** POST /annotation-queues/populate: the root runs of experiments (projects of the workspace), or their runs matching a filter. */
export async function populateQueue(
  db: Sql,
  workspaceId: string,
  input: { queue_id: string; session_ids: string[]; filter?: string | null; limit?: number; extend_trace_retention?: boolean },
) {
  const queue = await loadQueue(db, workspaceId, input.queue_id);
  const found = await db.prisma.project.findMany({ where: { workspaceId, id: { in: input.session_ids } }, select: { id: true } });
  const missing = input.session_ids.filter((id) => !found.some((p) => p.id === id));
  if (missing.length) throw notFound(`Projects not found: ${missing.join(", ")}.`);
  const items = await addRunsOfProjects(db, workspaceId, queue, input.session_ids, input);
  if (input.extend_trace_retention)
    await extendTraces(
      db,
      workspaceId,
      items.map((item) => item.run_id),
    );
  return { added: items.length };
}

export async function queueRuns(
  db: Sql,
  workspaceId: string,
  reviewerId: string,
  queueId: string,
  q: { status?: ReviewStatus | null; archived?: boolean | null; offset: number; limit: number },
) {
  await loadQueue(db, workspaceId, queueId);
  return listQueueRuns(db, workspaceId, queueId, reviewerId, q);
}

export async function queueRunAtIndex(db: Sql, workspaceId: string, queueId: string, index: number) {
  return queueRunAt(db, workspaceId, await loadQueue(db, workspaceId, queueId), index);
}

/** /size (runs not done, or by the caller's status), /total_size (every run), /total_archived (done, added in a range). */
export async function queueSize(
  db: Sql,
  workspaceId: string,
  reviewerId: string,
  queueId: string,
  status: ReviewStatus | "all" | null | undefined,
  added?: { from?: Date | null; to?: Date | null },
) {
  await loadQueue(db, workspaceId, queueId);
  return { size: await countQueueRuns(db, queueId, reviewerId, status, added) };
}

export async function updateQueueRun(db: Sql, workspaceId: string, queueId: string, id: string, change: QueueRunUpdate) {
  await loadQueue(db, workspaceId, queueId);
  return updateItem(db, await loadItem(db, queueId, id), change);
}

export async function removeQueueRun(db: Sql, workspaceId: string, queueId: string, id: string) {
  await loadQueue(db, workspaceId, queueId);
  const item = await loadItem(db, queueId, id);
  await removeRuns(db, queueId, { item_ids: [item.id] });
}

export async function removeQueueRuns(db: Sql, workspaceId: string, queueId: string, which: Parameters<typeof removeRuns>[2]) {
  await loadQueue(db, workspaceId, queueId);
  return { deleted: await removeRuns(db, queueId, which) };
}

/** The status paths name only the item: its queue is found from it. */
export async function setItemStatus(db: Sql, workspaceId: string, caller: Identity, itemId: string, change: StatusUpdate) {
  const item = await loadItemOfWorkspace(db, workspaceId, itemId);
  const queue = await loadQueue(db, workspaceId, item.queueId);
  await assertReviews(db, queue.id, caller);
  return markStatus(db, queue, item, reviewerOf(caller), change);
}

export async function exportQueueRuns(db: Sql, workspaceId: string, queueId: string, q: Parameters<typeof exportQueue>[3]) {
  await loadQueue(db, workspaceId, queueId);
  return exportQueue(db, workspaceId, queueId, q);
}

export async function itemsPage(db: Sql, workspaceId: string, reviewerId: string, queueId: string, q: Parameters<typeof listItems>[3]) {
  await loadQueue(db, workspaceId, queueId);
  return listItems(db, queueId, reviewerId, q);
}

export async function countItems(
  db: Sql,
  workspaceId: string,
  reviewerId: string,
  queueId: string,
  q: { status: string; start_time?: Date | null; end_time?: Date | null },
) {
  const { size } = await queueSize(db, workspaceId, reviewerId, queueId, sectionStatus(q.status), { from: q.start_time, to: q.end_time });
  return { count: size };
}

export async function placeItem(db: Sql, workspaceId: string, reviewerId: string, queueId: string, itemId: string) {
  await loadQueue(db, workspaceId, queueId);
  return itemPlacement(db, await loadItem(db, queueId, itemId), reviewerId);
}
