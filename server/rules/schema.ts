import { z } from "zod";
import { extraHeaders } from "../core/headers";
import { uuid } from "../core/uuid";
import { score } from "../feedback/schema";
import { instant } from "../core/instant";
import { codeEvaluator, structuredEvaluator } from "../evaluators/schema";

/** `secret` signs each body (X-Tracelight-Signature, as alert webhooks); stored sealed, never shown again. */
export const webhook = z.object({
  url: z.string().min(1).max(2048),
  headers: extraHeaders.nullish(),
  secret: z.string().min(8, "must be at least 8 characters").max(512).nullish(),
});
export type Webhook = z.infer<typeof webhook>;

export const addFeedback = z.object({
  key: z.string().min(1).max(256),
  score,
  value: z.unknown().optional(),
  comment: z.string().max(10_000).nullish(),
});
export type AddFeedback = z.infer<typeof addFeedback>;

const fields = {
  display_name: z.string().min(1).max(200),
  session_id: uuid.nullish(),
  dataset_id: uuid.nullish(),
  evaluator_id: uuid.nullish(),
  /** An inline evaluator (LangSmith's structured form), stored as an evaluator of its own. */
  evaluators: z.array(structuredEvaluator).max(1).nullish(),
  /** An inline code evaluator (`{code, language}`), likewise stored as an evaluator of its own. */
  code_evaluators: z.array(codeEvaluator).max(1).nullish(),
  /** Evaluate the matching runs since then too (a backfill up to now); rules with an evaluator. */
  backfill_from: instant.nullish(),
  filter: z.string().max(10_000).nullish(),
  sampling_rate: z.number().min(0).max(1),
  is_enabled: z.boolean(),
  add_to_dataset_id: uuid.nullish(),
  add_to_annotation_queue_id: uuid.nullish(),
  add_feedback: addFeedback.nullish(),
  webhooks: z.array(webhook).max(5),
};

/**
 * POST /runs/rules. Names follow LangSmith's rule schema; `add_feedback` is ours. A rule is on a
 * project (`session_id`: its new runs) or on a dataset (`dataset_id`: its experiments' root runs).
 */
export const ruleCreate = z
  .object({
    ...fields,
    sampling_rate: fields.sampling_rate.default(1),
    is_enabled: fields.is_enabled.default(true),
    webhooks: fields.webhooks.nullish().transform((v) => v ?? []),
  })
  .refine((r) => !r.session_id !== !r.dataset_id, { message: "needs exactly one of session_id and dataset_id", path: ["session_id"] })
  .refine((r) => [r.evaluator_id, r.evaluators?.length, r.code_evaluators?.length].filter(Boolean).length <= 1, {
    message: "give one of evaluator_id, evaluators and code_evaluators",
    path: ["evaluators"],
  });
export type RuleCreate = z.infer<typeof ruleCreate>;

/** PATCH /runs/rules/{id}: only the fields sent change. */
export const ruleUpdate = z.object({
  display_name: fields.display_name.optional(),
  session_id: uuid.optional(),
  evaluator_id: fields.evaluator_id,
  backfill_from: fields.backfill_from,
  filter: fields.filter,
  sampling_rate: fields.sampling_rate.optional(),
  is_enabled: fields.is_enabled.optional(),
  add_to_dataset_id: fields.add_to_dataset_id,
  add_to_annotation_queue_id: fields.add_to_annotation_queue_id,
  add_feedback: fields.add_feedback,
  webhooks: fields.webhooks.nullish(),
});
export type RuleUpdate = z.infer<typeof ruleUpdate>;

export const pageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** GET /runs/rules (LangSmith's list filters, `type`: rules on a project or on a dataset). */
export const ruleListQuery = pageQuery.extend({
  session_id: uuid.optional(),
  dataset_id: uuid.optional(),
  evaluator_id: uuid.optional(),
  type: z.enum(["session", "dataset"]).optional(),
  name_contains: z.string().max(200).optional(),
});
type WireRuleListQuery = z.infer<typeof ruleListQuery>;

/** Which rules, in the domain's words: on a project or a dataset, with an evaluator, by name; a page of them. */
export interface RuleFilter {
  projectId?: string;
  datasetId?: string;
  evaluatorId?: string;
  /** Only rules on projects ("session") or only rules on datasets. */
  kind?: "session" | "dataset";
  nameContains?: string;
  offset: number;
  limit: number;
}

/** GET /runs/rules' query parameters as a filter. */
export function ruleFilterFromWire(q: WireRuleListQuery): RuleFilter {
  return {
    projectId: q.session_id,
    datasetId: q.dataset_id,
    evaluatorId: q.evaluator_id,
    kind: q.type,
    nameContains: q.name_contains,
    offset: q.offset,
    limit: q.limit,
  };
}

/** A rule as the API answers it: webhook header values are never shown again. */
export const wireRule = z.object({
  id: z.string(),
  tenant_id: z.string(),
  session_id: z.string().nullable(),
  dataset_id: z.string().nullable(),
  evaluator_id: z.string().nullable(),
  evaluator_name: z.string().nullable(),
  display_name: z.string(),
  filter: z.string().nullable(),
  sampling_rate: z.number(),
  is_enabled: z.boolean(),
  add_to_dataset_id: z.string().nullable(),
  add_to_annotation_queue_id: z.string().nullable(),
  add_feedback: addFeedback.nullable(),
  webhooks: z.array(z.object({ url: z.string(), headers: z.record(z.string(), z.literal("<redacted>")).nullable(), signed: z.boolean() })),
  backfill_id: z.string().nullable(),
  backfill_from: z.string().nullable(),
  backfill_status: z.string().nullable(),
  backfill_progress: z.number().nullable(),
  backfill_completed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireRule = z.infer<typeof wireRule>;

/** A backfill as answered: evaluated so far out of queued. */
export const wireBackfill = z.object({
  id: z.string(),
  rule_id: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  status: z.enum(["completed", "running"]),
  runs_total: z.number(),
  runs_queued: z.number(),
  runs_evaluated: z.number(),
  progress: z.number(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type WireBackfill = z.infer<typeof wireBackfill>;

/** What each action of a rule did. */
export const wireRuleLog = z.object({
  id: z.string(),
  run_id: z.string(),
  action: z.string(),
  outcome: z.string(),
  attempts: z.number(),
  status_code: z.number().nullable(),
  detail: z.string().nullable(),
  created_at: z.string(),
});
export type WireRuleLog = z.infer<typeof wireRuleLog>;

/** What applying a rule now did: its actions are durable jobs, queued (their outcomes are in its logs). */
export const wireRuleReport = z.object({
  rule_id: z.string(),
  matched: z.number(),
  sampled: z.number(),
  actions: z.object({ queued: z.number() }),
});
export type RuleReport = z.infer<typeof wireRuleReport>;
