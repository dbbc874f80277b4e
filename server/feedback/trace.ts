import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isUuid } from "../core/uuid";
import { feedbackToWire, type WireFeedback } from "./wire";

/**
 * All feedback on a run and on the other runs of its trace, newest first (the run view's panel).
 * Finds them through the trace's run ids (so the runs trace index and the feedback run index serve
 * it), then reads them through Prisma Client.
 */
export async function feedbackOnRunAndTrace(
  db: Sql,
  workspaceId: string,
  runId: string,
  traceId: string | null,
  limit = 500,
): Promise<WireFeedback[]> {
  if (!isUuid(runId) || (traceId !== null && !isUuid(traceId))) return [];
  const traceRuns = traceId
    ? sql` OR run_id IN (SELECT id FROM runs WHERE workspace_id = ${workspaceId} AND trace_id = ${traceId})`
    : sql``;
  const found = await db.query<{ id: string }>(sql`
    SELECT id FROM feedback WHERE workspace_id = ${workspaceId} AND (run_id = ${runId}${traceRuns})
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  const rows = await db.prisma.feedback.findMany({
    where: { id: { in: found.map((f) => f.id) } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(feedbackToWire);
}

/** The feedback on a whole thread of a project (not on its turns), newest first. */
export async function feedbackOnThread(
  db: Sql,
  workspaceId: string,
  projectId: string,
  threadId: string,
  limit = 500,
): Promise<WireFeedback[]> {
  if (!isUuid(projectId)) return [];
  const rows = await db.prisma.feedback.findMany({
    where: { workspaceId, projectId, threadId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(feedbackToWire);
}
