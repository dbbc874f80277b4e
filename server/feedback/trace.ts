import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isUuid } from "../core/uuid";
import { feedbackToWire, type FeedbackRow, type WireFeedback } from "./wire";

/**
 * All feedback on a run and on the other runs of its trace, newest first (the run view's panel).
 * Goes through the trace's run ids so both the runs trace index and the feedback run index serve it.
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
  const rows = await db.query<FeedbackRow>(sql`
    SELECT * FROM feedback WHERE workspace_id = ${workspaceId} AND (run_id = ${runId}${traceRuns})
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  return rows.map(feedbackToWire);
}
