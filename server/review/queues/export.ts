import type { Sql } from "../../db/client";
import { csvText } from "../../core/csv";
import { listFeedback } from "../../feedback/service";
import type { WireFeedback } from "../../feedback/wire";
import { countQueueRuns, runsWithQueueInfo } from "./reads";

const MAX_EXPORT = 10_000;

/** The reviewer of a feedback left from a queue, when a person left it. */
const annotator = (f: WireFeedback) => {
  const meta = (f.feedback_source as { metadata?: { user_id?: string; user_name?: string } } | null)?.metadata;
  return meta?.user_id ? { user_id: meta.user_id, user_name: meta.user_name ?? null } : null;
};

/**
 * POST /annotation-queues/{id}/export: the queue's done runs (added in the time range, at most
 * 10,000) with their inputs, outputs and feedback; per reviewer with `include_annotator_detail`.
 * JSON, or CSV with one column per feedback key (the mean score, else the values).
 */
export async function exportQueue(
  db: Sql,
  workspaceId: string,
  queueId: string,
  q: { start_time?: Date | null; end_time?: Date | null; include_annotator_detail?: boolean; format?: "json" | "csv" },
) {
  const items = await db.prisma.annotationQueueRun.findMany({
    where: { queueId, archived: true, addedAt: { gte: q.start_time ?? undefined, lte: q.end_time ?? undefined } },
    orderBy: [{ addedAt: "asc" }, { id: "asc" }],
    take: MAX_EXPORT,
  });
  const runs = await runsWithQueueInfo(db, workspaceId, items);
  const feedback: WireFeedback[] = [];
  for (let i = 0; i < runs.length; i += 100) {
    feedback.push(
      ...(await listFeedback(db, workspaceId, {
        run: runs.slice(i, i + 100).map((r) => r.id),
        key: [],
        source: [],
        session: [],
        offset: 0,
        limit: 1000,
      })),
    );
  }
  const rows = runs.map((run) => {
    const own = feedback.filter((f) => f.run_id === run.id);
    return {
      run_id: run.id,
      queue_run_id: run.queue_run_id,
      name: run.name,
      inputs: run.inputs,
      outputs: run.outputs,
      added_at: run.added_at,
      completed_by: run.completed_by,
      feedback: own.map((f) => ({
        key: f.key,
        score: f.score,
        value: f.value,
        comment: f.comment,
        ...(q.include_annotator_detail ? { annotator: annotator(f) } : {}),
      })),
    };
  });
  if (q.format !== "csv") return { runs: rows, total_archived: await countQueueRuns(db, queueId, "", "completed") };
  const keys = [...new Set(feedback.map((f) => f.key))].sort();
  const cell = (row: (typeof rows)[number], key: string) => {
    const scores = row.feedback.filter((f) => f.key === key && typeof f.score === "number").map((f) => f.score as number);
    if (scores.length) return scores.reduce((a, b) => a + b, 0) / scores.length;
    return row.feedback
      .filter((f) => f.key === key && f.value != null)
      .map((f) => (typeof f.value === "string" ? f.value : JSON.stringify(f.value)))
      .join("; ");
  };
  return csvText(
    ["run_id", "name", "inputs", "outputs", "added_at", "completed_by", ...keys.map((k) => `feedback.${k}`)],
    rows.map((r) => [r.run_id, r.name, r.inputs, r.outputs, r.added_at, r.completed_by.join(" "), ...keys.map((k) => cell(r, k))]),
  );
}
