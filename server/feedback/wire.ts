import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";

/** A feedback row as stored. */
export interface FeedbackRow {
  id: string;
  workspace_id: string;
  run_id: string | null;
  trace_id: string | null;
  project_id: string | null;
  key: string;
  score: number | null;
  value: unknown;
  comment: string | null;
  correction: unknown;
  feedback_source: unknown;
  feedback_config: unknown;
  comparative_experiment_id: string | null;
  feedback_group_id: string | null;
  extra: unknown;
  start_time: string | null;
  created_at: string;
  modified_at: string;
}

/** The feedback object both SDKs parse (Python requires created_at and modified_at). */
export function feedbackToWire(stored: FeedbackRow) {
  const row = fromStorage(stored);
  return {
    id: row.id,
    run_id: row.run_id,
    trace_id: row.trace_id,
    session_id: row.project_id,
    key: row.key,
    score: row.score === null ? null : Number(row.score),
    value: row.value,
    comment: row.comment,
    correction: row.correction,
    feedback_source: row.feedback_source,
    feedback_config: row.feedback_config,
    comparative_experiment_id: row.comparative_experiment_id,
    feedback_group_id: row.feedback_group_id,
    extra: row.extra,
    start_time: isoFromDb(row.start_time),
    created_at: isoFromDb(row.created_at),
    modified_at: isoFromDb(row.modified_at),
  };
}
export type WireFeedback = ReturnType<typeof feedbackToWire>;
