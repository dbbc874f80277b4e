import { isoFromDb } from "../core/time";
import type { Feedback } from "../db/generated/client";
import { fromStorage } from "../db/storable";

/** The feedback object both SDKs parse (Python requires created_at and modified_at). */
export function feedbackToWire(stored: Feedback) {
  const row = fromStorage(stored);
  return {
    id: row.id,
    run_id: row.runId,
    trace_id: row.traceId,
    session_id: row.projectId,
    key: row.key,
    score: row.score,
    value: row.value as unknown,
    comment: row.comment,
    correction: row.correction as unknown,
    feedback_source: row.feedbackSource as unknown,
    feedback_config: row.feedbackConfig as unknown,
    comparative_experiment_id: row.comparativeExperimentId,
    feedback_group_id: row.feedbackGroupId,
    extra: row.extra as unknown,
    start_time: isoFromDb(row.startTime),
    created_at: isoFromDb(row.createdAt),
    modified_at: isoFromDb(row.modifiedAt),
  };
}
export type WireFeedback = ReturnType<typeof feedbackToWire>;
