import { z } from "zod";
import { instant } from "../../core/instant";
import { uuid } from "../../core/uuid";

const conditions = z.object({
  join: z.enum(["all", "any"]),
  rules: z.array(
    z.object({
      key: z.string(),
      op: z.enum(["is", "is_one_of", "is_empty", "is_not_empty"]),
      values: z.array(z.number()).optional(),
    }),
  ),
});

/** One question of a queue's rubric: a feedback key, scored as its feedback config says. */
export const rubricItem = z.object({
  feedback_key: z.string().min(1).max(256),
  description: z.string().max(10_000).nullish(),
  value_descriptions: z.record(z.string(), z.string()).nullish(),
  score_descriptions: z.record(z.string(), z.string()).nullish(),
  is_required: z.boolean().nullish(),
  required_if: conditions.nullish(),
  visible_if: conditions.nullish(),
  is_assertion: z.boolean().nullish(),
  regex_validator: z.string().max(500).nullish(),
  feedback_config_id: uuid.nullish(),
});
export type RubricItem = z.infer<typeof rubricItem>;

/** LangSmith's reviewer_access_mode: anyone who may review, or only the queue's assigned reviewers. */
export const reviewerAccessMode = z.enum(["any", "assigned"]);

const settings = {
  reviewer_access_mode: reviewerAccessMode.nullish(),
  description: z.string().max(10_000).nullish(),
  rubric_instructions: z.string().max(100_000).nullish(),
  // Items read back carry `feedback_config`; it is read-only and dropped here.
  rubric_items: z.array(rubricItem).max(50).nullish(),
  default_dataset: uuid.nullish(),
  num_reviewers_per_item: z.number().int().min(1).max(100).nullish(),
  enable_reservations: z.boolean().nullish(),
  reservation_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
};

export const queueType = z.enum(["single", "pairwise"]);

/**
 * POST /annotation-queues (the classic client's createAnnotationQueue and resources' annotationQueues).
 * A pairwise queue's `session_ids` are the two experiments whose runs it pairs (by example).
 */
export const queueCreate = z.object({
  name: z.string().min(1).max(256),
  id: uuid.optional(),
  queue_type: queueType.nullish(),
  ...settings,
  session_ids: z.array(uuid).nullish(),
});
export type QueueCreate = z.infer<typeof queueCreate>;

/** PATCH /annotation-queues/{id}: only what is sent changes; rubric_items replaces the rubric. */
export const queueUpdate = z.object({ name: z.string().min(1).max(256).nullish(), ...settings });
export type QueueUpdate = z.infer<typeof queueUpdate>;

const idList = z
  .union([uuid, z.array(uuid)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

export const queueListQuery = z.object({
  ids: idList,
  name: z.string().optional(),
  name_contains: z.string().optional(),
  dataset_id: uuid.optional(),
  queue_type: queueType.optional(),
  /** LangSmith's filter: only the queues the caller (a user or a personal key) is assigned to review. */
  assigned_to_me: z.enum(["true", "false"]).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type QueueListQuery = z.infer<typeof queueListQuery>;

/** A reviewer's view of a queue's runs: not yet reviewed by them, reviewed by them but not done, done. */
export const reviewStatus = z.enum(["needs_my_review", "needs_others_review", "completed"]);
export type ReviewStatus = z.infer<typeof reviewStatus>;

/** The run keys of POST /runs/by-key and the platform items (the run's project and start time); `paired_run_id`: run B of a pairwise queue's item. */
export const runKey = z.object({
  run_id: uuid,
  paired_run_id: uuid.nullish(),
  session_id: uuid.nullish(),
  project_id: uuid.nullish(),
  start_time: instant.nullish(),
  source_proposed_example_id: uuid.nullish(),
});
export type RunKey = z.infer<typeof runKey>;

/** POST /annotation-queues/{id}/runs: run ids, or objects with a run id. */
export const runsAdd = z.array(z.union([uuid.transform((run_id) => ({ run_id })), runKey])).max(10_000);

export const runsDelete = z.object({
  run_ids: z.array(uuid).nullish(),
  delete_all: z.boolean().optional(),
  exclude_run_ids: z.array(uuid).nullish(),
});

export const queueRunUpdate = z.object({
  queue_id: uuid.optional(),
  added_at: instant.nullish(),
  last_reviewed_time: instant.nullish(),
});
export type QueueRunUpdate = z.infer<typeof queueRunUpdate>;

/**
 * POST /annotation-queues/status/{id} and the items' /status: viewed; completed or skipped by the
 * caller; or `needs_review`: the caller's review is withdrawn and the run is open again.
 */
export const statusUpdate = z.object({
  status: z.enum(["viewed", "completed", "skipped", "needs_review"]).nullish(),
  override_added_at: instant.nullish(),
});
export type StatusUpdate = z.infer<typeof statusUpdate>;

/** POST /annotation-queues/populate: an experiment's root runs, or (with `filter`, in the filter language) the projects' runs matching it. */
export const populate = z.object({
  queue_id: uuid,
  session_ids: z.array(uuid).min(1).max(100),
  filter: z.string().max(10_000).nullish(),
  limit: z.number().int().min(1).max(10_000).optional(),
  extend_trace_retention: z.boolean().optional(),
});

export const exportQuery = z.object({
  start_time: instant.nullish(),
  end_time: instant.nullish(),
  include_annotator_detail: z.boolean().optional(),
  format: z.enum(["json", "csv"]).optional(),
});

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

export const queueRunsQuery = z.object({
  status: reviewStatus.optional(),
  archived: flag.optional(),
  include_stats: flag.optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const sizeQuery = z.object({ status: reviewStatus.optional() });
export const timeRangeQuery = z.object({ start_time: instant.optional(), end_time: instant.optional() });

/** GET /platform/annotation-queues/{id}/items (ItemsCursorGetPagination). */
export const itemsQuery = z
  .object({
    status: z.string().default("needs_my_review"),
    cursor: z.string().optional(),
    page_size: z.coerce.number().int().min(1).max(1000).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    direction: z.enum(["forward", "backward"]).optional(),
    item_type: z.enum(["RUN", "THREAD"]).optional(),
    min_start_time: instant.optional(),
    max_start_time: instant.optional(),
  })
  .transform(({ page_size, limit, ...q }) => ({ ...q, limit: page_size ?? limit ?? 100 }));

export const itemsCountQuery = timeRangeQuery.extend({ status: z.string().default("all") });

/** POST /platform/annotation-queues/{id}/items. */
/** `?extend_trace_retention=true` on adding runs: their traces are upgraded to extended retention for good. */
export const extendQuery = z.object({ extend_trace_retention: flag.optional() });

export const itemsAdd = z.object({
  items: z
    .array(runKey.extend({ item_type: z.enum(["RUN"]).optional(), thread_id: z.string().optional() }))
    .max(10_000)
    .default([]),
});

export const itemsDelete = z.object({ item_ids: z.array(uuid).max(10_000).default([]) });
