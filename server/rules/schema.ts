import { z } from "zod";
import { uuid } from "../core/uuid";
import { score } from "../feedback/schema";

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "must be a valid HTTP header name");
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[^\r\n]*$/, "must not contain line breaks");

export const webhook = z.object({
  url: z.string().min(1).max(2048),
  headers: z.record(headerName, headerValue).nullish(),
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
  session_id: uuid,
  filter: z.string().max(10_000).nullish(),
  sampling_rate: z.number().min(0).max(1),
  is_enabled: z.boolean(),
  add_to_dataset_id: uuid.nullish(),
  add_to_annotation_queue_id: uuid.nullish(),
  add_feedback: addFeedback.nullish(),
  webhooks: z.array(webhook).max(5),
};

/** POST /runs/rules. Names follow LangSmith's rule schema; `add_feedback` is ours. */
export const ruleCreate = z.object({
  ...fields,
  sampling_rate: fields.sampling_rate.default(1),
  is_enabled: fields.is_enabled.default(true),
  webhooks: fields.webhooks.nullish().transform((v) => v ?? []),
});
export type RuleCreate = z.infer<typeof ruleCreate>;

/** PATCH /runs/rules/{id}: only the fields sent change. */
export const ruleUpdate = z.object({
  display_name: fields.display_name.optional(),
  session_id: fields.session_id.optional(),
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

/** A rule as the API answers it: webhook header values are never shown again. */
export const wireRule = z.object({
  id: z.string(),
  tenant_id: z.string(),
  session_id: z.string(),
  display_name: z.string(),
  filter: z.string().nullable(),
  sampling_rate: z.number(),
  is_enabled: z.boolean(),
  add_to_dataset_id: z.string().nullable(),
  add_to_annotation_queue_id: z.string().nullable(),
  add_feedback: addFeedback.nullable(),
  webhooks: z.array(z.object({ url: z.string(), headers: z.record(z.string(), z.literal("<redacted>")).nullable() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WireRule = z.infer<typeof wireRule>;
