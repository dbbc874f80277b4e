import { z } from "zod";
import { shallow } from "../core/json-depth";
import { uuid } from "../core/uuid";

/** Python sends booleans as scores; we store them as 1/0. Infinity and NaN are refused by zod. */
export const score = z
  .union([z.number(), z.boolean()])
  .transform((v) => (typeof v === "boolean" ? Number(v) : v))
  .nullish();

/**
 * The longest feedback key, counted as stored (db/storable). With a string value of up to 1,500
 * bytes (migration 20261127000200_rollup_quarantine) it is a key of the feedback_buckets rollup, whose
 * index row must fit 2,704 bytes: 256 characters take at most 768.
 */
export const MAX_FEEDBACK_KEY = 256;

/** A thread id is at most what ingest accepts in runs.thread_id. */
const MAX_THREAD_ID = 1_000;

const json = shallow(z.unknown()).optional();
const record = shallow(z.record(z.string(), z.unknown()));
const feedbackSource = z.looseObject({ type: z.string().nullish(), metadata: z.record(z.string(), z.unknown()).nullish() });
const time = z.union([z.string(), z.number()]).nullish();

/**
 * FeedbackCreate as both SDKs send it. JS sends `feedbackConfig` (camelCase, a typo in the SDK),
 * Python `feedback_config`; unknown keys (extend_trace_retention, address...) are ignored.
 */
export const feedbackCreate = z.looseObject({
  id: uuid.nullish(),
  run_id: uuid.nullish(),
  trace_id: uuid.nullish(),
  session_id: uuid.nullish(),
  key: z.string().min(1, "must not be empty").max(MAX_FEEDBACK_KEY),
  score,
  value: json,
  comment: z.string().nullish(),
  correction: json,
  feedback_source: feedbackSource.nullish(),
  feedback_config: record.nullish(),
  feedbackConfig: record.nullish(),
  comparative_experiment_id: uuid.nullish(),
  feedback_group_id: uuid.nullish(),
  /** Feedback on a whole thread (LangSmith's thread feedback): with `session_id`, the thread's id. */
  thread_id: z.string().min(1).max(MAX_THREAD_ID).nullish(),
  extra: record.nullish(),
  start_time: time,
  created_at: time,
});
export type FeedbackCreate = z.infer<typeof feedbackCreate>;

/** PATCH /feedback/{id}: only the fields present change; `null` clears one. */
export const feedbackUpdate = z.object({
  score,
  value: json,
  comment: z.string().nullish(),
  correction: json,
  feedback_config: record.nullish(),
});
export type FeedbackUpdate = z.infer<typeof feedbackUpdate>;

const many = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as z.infer<T>[]);

export const feedbackListQuery = z.object({
  run: many(uuid),
  key: many(z.string()),
  source: many(z.string()),
  session: many(uuid),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type FeedbackListQuery = z.infer<typeof feedbackListQuery>;
