import { z } from "zod";
import { isoFromDb } from "../core/time";
import type { Feedback } from "../db/generated/client";
import { fromStorage } from "../db/storable";

/** The feedback object both SDKs parse (Python requires created_at and modified_at). */
export const wireFeedback = z.object({
  id: z.string(),
  run_id: z.string().nullable(),
  trace_id: z.string().nullable(),
  session_id: z.string().nullable(),
  key: z.string(),
  score: z.number().nullable(),
  value: z.unknown(),
  comment: z.string().nullable(),
  correction: z.unknown(),
  feedback_source: z.unknown(),
  feedback_config: z.unknown(),
  comparative_experiment_id: z.string().nullable(),
  feedback_group_id: z.string().nullable(),
  /** Set on feedback on a whole thread (with `session_id`, no `run_id`). */
  thread_id: z.string().nullable(),
  extra: z.unknown(),
  start_time: z.string().nullable(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type WireFeedback = z.infer<typeof wireFeedback>;

export function feedbackToWire(stored: Feedback): WireFeedback {
  const row = fromStorage(stored);
  return {
    id: row.id,
    run_id: row.runId,
    trace_id: row.traceId,
    session_id: row.projectId,
    key: row.key,
    score: row.score,
    value: row.value,
    comment: row.comment,
    correction: row.correction,
    feedback_source: row.feedbackSource,
    feedback_config: row.feedbackConfig,
    comparative_experiment_id: row.comparativeExperimentId,
    feedback_group_id: row.feedbackGroupId,
    thread_id: row.threadId,
    extra: row.extra,
    start_time: isoFromDb(row.startTime),
    created_at: isoFromDb(row.createdAt)!,
    modified_at: isoFromDb(row.modifiedAt)!,
  };
}
