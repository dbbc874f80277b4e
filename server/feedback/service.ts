import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, describeZodError, notFound } from "../core/errors";
import { isUuid } from "../core/uuid";
import { feedbackCreate, type FeedbackCreate, type FeedbackListQuery, type FeedbackUpdate } from "./schema";
import { insertFeedback } from "./store";
import { feedbackToWire, type FeedbackRow, type WireFeedback } from "./wire";

/** `null` clears a JSON column (SQL NULL), anything else is stored as given. */
const jsonb = (value: unknown) => (value === null ? null : JSON.stringify(value));
const missing = (id: string) => notFound(`Feedback ${id} not found.`);

/** POST /feedback: on a run (kept even if the run is not stored yet) or on a whole project. */
export async function createFeedback(db: Sql, workspaceId: string, input: FeedbackCreate): Promise<WireFeedback> {
  if (!input.run_id && !input.session_id) throw badRequest("Feedback needs a run_id, or a session_id for feedback on a whole project.");
  if (!input.run_id && input.session_id) {
    const [project] = await db.query(sql`SELECT 1 FROM projects WHERE id = ${input.session_id} AND workspace_id = ${workspaceId}`);
    if (!project) throw notFound(`Project ${input.session_id} not found.`);
  }
  const [row] = await insertFeedback(db, workspaceId, [input]);
  return feedbackToWire(row);
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
  if (!isUuid(id)) throw missing(id);
  const [row] = await db.query<FeedbackRow>(sql`SELECT * FROM feedback WHERE id = ${id} AND workspace_id = ${workspaceId}`);
  if (!row) throw missing(id);
  return feedbackToWire(row);
}

export async function updateFeedback(db: Sql, workspaceId: string, id: string, change: FeedbackUpdate): Promise<WireFeedback> {
  if (!isUuid(id)) throw missing(id);
  const sets: SqlFragment[] = [sql`modified_at = now()`];
  if (change.score !== undefined) sets.push(sql`score = ${change.score}`);
  if (change.value !== undefined) sets.push(sql`value = ${jsonb(change.value)}::jsonb`);
  if (change.comment !== undefined) sets.push(sql`comment = ${change.comment}`);
  if (change.correction !== undefined) sets.push(sql`correction = ${jsonb(change.correction)}::jsonb`);
  if (change.feedback_config !== undefined) sets.push(sql`feedback_config = ${jsonb(change.feedback_config)}::jsonb`);
  const [row] = await db.query<FeedbackRow>(sql`
    UPDATE feedback SET ${join(sets)} WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING *`);
  if (!row) throw missing(id);
  return feedbackToWire(row);
}

export async function deleteFeedback(db: Sql, workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw missing(id);
  const rows = await db.query(sql`DELETE FROM feedback WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`);
  if (rows.length === 0) throw missing(id);
}

/** GET /feedback: newest first, filtered by runs, keys, source types and projects. */
export async function listFeedback(db: Sql, workspaceId: string, query: FeedbackListQuery): Promise<WireFeedback[]> {
  const where: SqlFragment[] = [sql`workspace_id = ${workspaceId}`];
  if (query.run.length) where.push(sql`run_id = ANY(${query.run}::uuid[])`);
  if (query.key.length) where.push(sql`key = ANY(${query.key}::text[])`);
  if (query.source.length) where.push(sql`feedback_source->>'type' = ANY(${query.source}::text[])`);
  if (query.session.length) where.push(sql`project_id = ANY(${query.session}::uuid[])`);
  const rows = await db.query<FeedbackRow>(sql`
    SELECT * FROM feedback WHERE ${join(where, " AND ")}
    ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${query.offset}`);
  return rows.map(feedbackToWire);
}
