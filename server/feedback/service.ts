import type { Sql } from "../db/client";
import { Prisma } from "../db/generated/client";
import { toStorage } from "../db/storable";
import { badRequest, describeZodError, notFound } from "../core/errors";
import { isUuid } from "../core/uuid";
import { feedbackCreate, type FeedbackCreate, type FeedbackListQuery, type FeedbackUpdate } from "./schema";
import { insertFeedback } from "./store";
import { feedbackToWire, type WireFeedback } from "./wire";

const missing = (id: string) => notFound(`Feedback ${id} not found.`);

/** POST /feedback: on a run (kept even if the run is not stored yet) or on a whole project. */
export async function createFeedback(db: Sql, workspaceId: string, input: FeedbackCreate): Promise<WireFeedback> {
  if (!input.run_id && !input.session_id)
    throw badRequest("Feedback needs a run_id, or a session_id for feedback on a whole project (with a thread_id: on one of its threads).");
  // The project is checked here, not through sessions (which reads feedback for its statistics).
  if (!input.run_id && input.session_id && !(await db.prisma.project.count({ where: { id: input.session_id, workspaceId } }))) {
    throw notFound(`Project ${input.session_id} not found.`);
  }
  const [id] = await insertFeedback(db, workspaceId, [input]);
  return readFeedback(db, workspaceId, id);
}

/**
 * The `feedback.<id>` parts of a multipart ingest, stored in the ingest transaction. Each item is
 * the part's JSON with `id` taken from the part name.
 */
export async function storeFeedbackParts(tx: Sql, workspaceId: string, items: unknown[]): Promise<number> {
  const parsed = items.map((item, i) => {
    const result = feedbackCreate.safeParse(item);
    const id = (item as { id?: unknown } | null)?.id ?? i;
    if (!result.success) throw badRequest(describeZodError(result.error, `feedback.${String(id)}`));
    if (!result.data.run_id) throw badRequest(`Multipart part "feedback.${String(id)}" needs a run_id.`);
    return result.data;
  });
  return (await insertFeedback(tx, workspaceId, parsed)).length;
}

export async function readFeedback(db: Sql, workspaceId: string, id: string): Promise<WireFeedback> {
  const row = isUuid(id) ? await db.prisma.feedback.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw missing(id);
  return feedbackToWire(row);
}

/** A JSON column's new value: `null` clears it (SQL NULL), anything else is stored as sent. */
const json = (value: unknown) =>
  value === undefined ? undefined : value === null ? Prisma.DbNull : (toStorage(value) as Prisma.InputJsonValue);

export async function updateFeedback(db: Sql, workspaceId: string, id: string, change: FeedbackUpdate): Promise<WireFeedback> {
  const { count } = isUuid(id)
    ? await db.prisma.feedback.updateMany({
        where: { id, workspaceId },
        data: {
          modifiedAt: new Date(),
          score: change.score,
          value: json(change.value),
          comment: change.comment === undefined ? undefined : toStorage(change.comment),
          correction: json(change.correction),
          feedbackConfig: json(change.feedback_config),
        },
      })
    : { count: 0 };
  if (!count) throw missing(id);
  return readFeedback(db, workspaceId, id);
}

export async function deleteFeedback(db: Sql, workspaceId: string, id: string): Promise<void> {
  const { count } = isUuid(id) ? await db.prisma.feedback.deleteMany({ where: { id, workspaceId } }) : { count: 0 };
  if (!count) throw missing(id);
}

/** GET /feedback: newest first, filtered by runs, keys, source types and projects. */
export async function listFeedback(db: Sql, workspaceId: string, query: FeedbackListQuery): Promise<WireFeedback[]> {
  const rows = await db.prisma.feedback.findMany({
    where: {
      workspaceId,
      runId: query.run.length ? { in: query.run } : undefined,
      key: query.key.length ? { in: query.key } : undefined,
      projectId: query.session.length ? { in: query.session } : undefined,
      OR: query.source.length ? query.source.map((type) => ({ feedbackSource: { path: ["type"], equals: type } })) : undefined,
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    skip: query.offset,
  });
  return rows.map(feedbackToWire);
}
