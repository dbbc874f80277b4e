import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { badRequest, conflict } from "../core/errors";
import { formatMicros, parseInstant } from "../core/time";
import { MAX_FEEDBACK_KEY, type FeedbackCreate } from "./schema";
import { storableJson, storedLength } from "../db/storable";

const RECORD = `id uuid, run_id uuid, trace_id uuid, session_id uuid, key text, score double precision,
  value jsonb, comment text, correction jsonb, feedback_source jsonb, feedback_config jsonb,
  comparative_experiment_id uuid, feedback_group_id uuid, thread_id text, extra jsonb, start_time timestamptz, created_at timestamptz`;

const isoOrNull = (value: unknown) => {
  const micros = parseInstant(value);
  return micros === null ? null : formatMicros(micros);
};

function toRecord(item: FeedbackCreate) {
  return {
    id: item.id ?? randomUUID(),
    run_id: item.run_id ?? null,
    trace_id: item.trace_id ?? null,
    session_id: item.session_id ?? null,
    key: item.key,
    score: item.score ?? null,
    value: item.value ?? null,
    comment: item.comment ?? null,
    correction: item.correction ?? null,
    feedback_source: item.feedback_source ?? { type: "api", metadata: {} },
    feedback_config: item.feedback_config ?? item.feedbackConfig ?? null,
    comparative_experiment_id: item.comparative_experiment_id ?? null,
    feedback_group_id: item.feedback_group_id ?? null,
    thread_id: item.thread_id ?? null,
    extra: item.extra ?? null,
    start_time: isoOrNull(item.start_time),
    created_at: isoOrNull(item.created_at),
  };
}

/**
 * Stores feedback in one statement and returns the ids. Trace and project come from the run when it is stored (it is
 * authoritative); otherwise from the request, the project only when it is one of this workspace's.
 * Re-sending the same id updates it (an SDK retry is harmless); an id owned by another workspace
 * is a conflict.
 */
export async function insertFeedback(db: Sql, workspaceId: string, items: FeedbackCreate[]): Promise<string[]> {
  if (items.length === 0) return [];
  // Every writer of feedback comes here (REST, multipart parts, rules, evaluators, reviews, links).
  for (const item of items) {
    const length = storedLength(item.key, MAX_FEEDBACK_KEY);
    if (length > MAX_FEEDBACK_KEY) throw badRequest(`A feedback key is at most ${MAX_FEEDBACK_KEY} characters; this one has ${length}.`);
  }
  // One statement cannot upsert the same id twice: the last copy in the request wins.
  const records = [...new Map(items.map(toRecord).map((r) => [r.id, r])).values()];
  const rows = await db.query<{ id: string }>(sql`
    INSERT INTO feedback (id, workspace_id, run_id, trace_id, project_id, key, score, value, comment, correction,
      feedback_source, feedback_config, comparative_experiment_id, feedback_group_id, thread_id, extra, start_time, created_at, modified_at)
    SELECT v.id, ${workspaceId}::uuid, v.run_id, COALESCE(r.trace_id, v.trace_id), COALESCE(r.project_id, p.id), v.key,
      v.score, v.value, v.comment, v.correction, v.feedback_source, v.feedback_config, v.comparative_experiment_id,
      v.feedback_group_id, v.thread_id, v.extra, v.start_time, COALESCE(v.created_at, now()), now()
    FROM jsonb_to_recordset(${storableJson(records)}::jsonb) AS v(${raw(RECORD)})
    LEFT JOIN runs r ON r.id = v.run_id AND r.workspace_id = ${workspaceId}
    LEFT JOIN projects p ON p.id = v.session_id AND p.workspace_id = ${workspaceId}
    ON CONFLICT (id) DO UPDATE SET
      run_id = EXCLUDED.run_id, trace_id = EXCLUDED.trace_id, project_id = EXCLUDED.project_id, key = EXCLUDED.key,
      score = EXCLUDED.score, value = EXCLUDED.value, comment = EXCLUDED.comment, correction = EXCLUDED.correction,
      feedback_source = EXCLUDED.feedback_source, feedback_config = EXCLUDED.feedback_config,
      comparative_experiment_id = EXCLUDED.comparative_experiment_id, feedback_group_id = EXCLUDED.feedback_group_id,
      thread_id = EXCLUDED.thread_id,
      extra = EXCLUDED.extra, start_time = EXCLUDED.start_time, modified_at = now()
    WHERE feedback.workspace_id = EXCLUDED.workspace_id
    RETURNING id`);
  if (rows.length < records.length) {
    const stored = new Set(rows.map((r) => r.id));
    const taken = records.find((r) => !stored.has(r.id));
    throw conflict(`Feedback id ${taken?.id} is already in use.`);
  }
  return rows.map((r) => r.id);
}

/** Fills trace and project of feedback that arrived before its run, once the run is stored. */
export async function attachFeedbackToRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  const rows = await db.query(attachFeedbackUpdate(workspaceId, runIds));
  return rows.length;
}

/**
 * Whether any feedback names one of these runs, as a scalar subquery: for runs just inserted, only
 * feedback sent before them, which `attachFeedbackToRuns` must then complete. One probe of the
 * feedback index, where the attach itself is planned over every partition of runs.
 */
export function feedbackOnRuns(workspaceId: string, runIds: string[]): SqlFragment {
  return sql`SELECT EXISTS (SELECT 1 FROM feedback WHERE workspace_id = ${workspaceId} AND run_id = ANY(${runIds}::uuid[]))`;
}

/** The UPDATE of `attachFeedbackToRuns`, returning the feedback ids it changed (for use in a WITH). */
export function attachFeedbackUpdate(workspaceId: string, runIds: string[]): SqlFragment {
  return sql`
    UPDATE feedback AS f SET trace_id = r.trace_id, project_id = r.project_id
    FROM runs r
    WHERE f.workspace_id = ${workspaceId} AND f.run_id = ANY(${runIds}::uuid[])
      AND r.id = f.run_id AND r.workspace_id = ${workspaceId}
      AND (f.trace_id IS DISTINCT FROM r.trace_id OR f.project_id IS DISTINCT FROM r.project_id)
    RETURNING f.id`;
}
