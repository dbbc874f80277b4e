import { z } from "zod";
import { wireFeedbackConfig } from "../../feedback/configs";
import { storedRun } from "../../runs/serialize";
import { reviewerAccessMode, rubricItem } from "./schema";

/** A reviewer assigned to a queue, as LangSmith names one (AssignedReviewer). */
export const wireAssignedReviewer = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() });

/**
 * A queue as the SDKs read it (LangSmith's AnnotationQueueSchema): single-run or pairwise; reviewed
 * by anyone who may review (`any`) or only by its `assigned_reviewers` (`assigned`).
 */
export const wireQueue = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  queue_type: z.enum(["single", "pairwise"]),
  default_dataset: z.string().nullable(),
  num_reviewers_per_item: z.number().int(),
  enable_reservations: z.boolean(),
  reservation_minutes: z.number().int(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  reviewer_access_mode: reviewerAccessMode,
  assigned_reviewers: z.array(wireAssignedReviewer),
  run_rule_id: z.null(),
  source_rule_id: z.null(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireQueue = z.infer<typeof wireQueue>;

/** GET /annotation-queues: each queue with its number of runs. */
export const wireQueueListed = wireQueue.extend({ total_runs: z.number().int() });

/** GET /annotation-queues/{id}: the queue with its instructions and its rubric, each item with its key's feedback config. */
export const wireQueueDetail = wireQueue.extend({
  rubric_instructions: z.string().nullable(),
  rubric_items: z.array(rubricItem.extend({ feedback_config: wireFeedbackConfig.nullable() })),
});

/** A run in a queue (a queue run, or a platform item). */
export const wireItem = z.object({
  id: z.string(),
  queue_id: z.string(),
  run_id: z.string(),
  item_type: z.literal("RUN"),
  project_id: z.string(),
  start_time: z.string(),
  added_at: z.string(),
  last_reviewed_time: z.string().nullable(),
  source_proposed_example_id: z.string().nullable(),
  /** Run B of a pairwise queue's item (run A is `run_id`). */
  paired_run_id: z.string().nullable(),
});
export type WireItem = z.infer<typeof wireItem>;

/** Who completed a queue run, and who holds it now. */
const reviewState = { completed_by: z.array(z.string()), reserved_by: z.array(z.string()) };

/** A platform item as listed: the item and its review state. */
export const wireListedItem = wireItem.extend(reviewState);

/** A queue run as a whole run with its place in the queue (LangSmith's RunSchemaWithAnnotationQueueInfo). */
export const wireQueueRun = storedRun.extend({
  queue_run_id: z.string(),
  added_at: z.string().nullable(),
  effective_added_at: z.string().nullable(),
  last_reviewed_time: z.string().nullable(),
  /** Run B of a pairwise queue's item (this run is run A); null in a single-run queue. */
  paired_run_id: z.string().nullable(),
  ...reviewState,
});
export type QueueRun = z.infer<typeof wireQueueRun>;

/** `{size}` of /size, /total_size and /total_archived. */
export const wireSize = z.object({ size: z.number().int() });

/** GET …/items/count. */
export const wireCount = z.object({ count: z.number().int() });

/** GET …/items: one page of a section. */
export const wireItemsPage = z.object({ items: z.array(wireListedItem), next_cursor: z.string().nullable() });

/** GET …/items/{id}/placement: the item's section for the caller, its position there, a cursor that starts at it. */
export const wirePlacement = z.object({
  section: z.enum(["archived", "needs_others_review", "needs_my_review"]),
  position: z.number().int(),
  item_type: z.literal("RUN"),
  cursor: z.string(),
});

/** The status paths' answer. */
export const wireStatus = z.object({
  queue_item_id: z.string(),
  status: z.string(),
  is_archived: z.boolean(),
  override_added_at: z.string().optional(),
});
