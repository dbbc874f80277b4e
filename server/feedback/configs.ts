import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { FeedbackConfig as ConfigRow, Prisma } from "../db/generated/client";
import { badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { uuid } from "../core/uuid";

const category = z.object({ value: z.union([z.number(), z.string()]), label: z.string().nullish() });
/** How a key is scored: a range (continuous), labelled values (categorical) or free text. */
export const feedbackScoring = z.looseObject({
  type: z.enum(["continuous", "categorical", "freeform"]),
  min: z.number().nullish(),
  max: z.number().nullish(),
  categories: z.array(category).nullish(),
});

export type FeedbackScoring = z.infer<typeof feedbackScoring>;

export const feedbackConfigCreate = z.object({
  feedback_key: z.string().min(1).max(256),
  feedback_config: feedbackScoring,
  is_lower_score_better: z.boolean().nullish(),
});
export type FeedbackConfigCreate = z.infer<typeof feedbackConfigCreate>;

export const feedbackConfigUpdate = z.object({
  feedback_key: z.string().min(1),
  feedback_config: feedbackScoring.nullish(),
  is_lower_score_better: z.boolean().nullish(),
});
export type FeedbackConfigUpdate = z.infer<typeof feedbackConfigUpdate>;

/** GET /feedback-configs: repeated `key`, a name fragment, paging. */
export const feedbackConfigListQuery = z.object({
  key: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  name_contains: z.string().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** DELETE /feedback-configs: by key or by id. */
export const feedbackConfigDeleteQuery = z.object({ feedback_key: z.string().min(1).optional(), id: uuid.optional() });

/** A feedback config as the SDKs read it (LangSmith's FeedbackConfigSchema). */
export const wireFeedbackConfig = z.object({
  id: z.string(),
  tenant_id: z.string(),
  feedback_key: z.string(),
  feedback_config: feedbackScoring,
  is_lower_score_better: z.boolean(),
  created_at: z.string().nullable(),
  modified_at: z.string().nullable(),
});
export type WireFeedbackConfig = z.infer<typeof wireFeedbackConfig>;

const toWire = (row: ConfigRow): WireFeedbackConfig => ({
  id: row.id,
  tenant_id: row.workspaceId,
  feedback_key: row.feedbackKey,
  // Stored only after this schema accepted it.
  feedback_config: feedbackScoring.parse(row.feedbackConfig),
  is_lower_score_better: row.isLowerScoreBetter,
  created_at: isoFromDb(row.createdAt),
  modified_at: isoFromDb(row.modifiedAt),
});

function checkConfig(c: FeedbackScoring): void {
  if (c.type === "continuous" && typeof c.min === "number" && typeof c.max === "number" && c.min > c.max) {
    throw badRequest("feedback_config.min must not be greater than max.");
  }
  if (c.type === "categorical" && (!c.categories || c.categories.length < 2)) {
    throw badRequest("A categorical feedback config needs at least two categories.");
  }
}

/** A scoring config without its absent (null) fields, so `categories: null` and no categories compare equal. */
const scoringOf = (config: unknown) => Object.fromEntries(Object.entries(config as FeedbackScoring).filter(([, v]) => v != null));

/**
 * POST /feedback-configs: creating the same scoring config again returns the stored config
 * unchanged, whatever is_lower_score_better says (the SDKs send their default, false, even after a
 * PATCH set it); a different scoring config for the key is refused.
 */
export async function createFeedbackConfig(db: Sql, workspaceId: string, input: FeedbackConfigCreate) {
  checkConfig(input.feedback_config);
  const key = { workspaceId_feedbackKey: { workspaceId, feedbackKey: input.feedback_key } };
  const existing = await db.prisma.feedbackConfig.findUnique({ where: key });
  if (existing) {
    if (!isDeepStrictEqual(scoringOf(existing.feedbackConfig), scoringOf(input.feedback_config))) {
      throw badRequest(`A different feedback config already exists for key "${input.feedback_key}"; update it with PATCH.`);
    }
    return toWire(existing);
  }
  // Two identical creations at once both get the one that was stored.
  const row = await db.prisma.feedbackConfig.upsert({
    where: key,
    create: {
      id: randomUUID(),
      workspaceId,
      feedbackKey: input.feedback_key,
      feedbackConfig: input.feedback_config as Prisma.InputJsonObject,
      isLowerScoreBetter: input.is_lower_score_better ?? false,
    },
    update: {},
  });
  return toWire(row);
}

/** GET /feedback-configs: by key, or by a fragment of the key (any case), in key order. */
export async function listFeedbackConfigs(db: Sql, workspaceId: string, q: z.infer<typeof feedbackConfigListQuery>) {
  const rows = await db.prisma.feedbackConfig.findMany({
    where: { workspaceId, ...(q.key.length ? { feedbackKey: { in: q.key } } : {}) },
    orderBy: { feedbackKey: "asc" },
  });
  const fragment = q.name_contains?.toLowerCase();
  const matching = fragment ? rows.filter((r) => r.feedbackKey.toLowerCase().includes(fragment)) : rows;
  return matching.slice(q.offset, q.offset + q.limit).map(toWire);
}

export async function updateFeedbackConfig(db: Sql, workspaceId: string, input: FeedbackConfigUpdate) {
  if (input.feedback_config) checkConfig(input.feedback_config);
  const where = { workspaceId, feedbackKey: input.feedback_key };
  const { count } = await db.prisma.feedbackConfig.updateMany({
    where,
    data: {
      modifiedAt: new Date(),
      ...(input.feedback_config ? { feedbackConfig: input.feedback_config as Prisma.InputJsonObject } : {}),
      ...(input.is_lower_score_better != null ? { isLowerScoreBetter: input.is_lower_score_better } : {}),
    },
  });
  if (count === 0) throw notFound(`No feedback config for key "${input.feedback_key}".`);
  return toWire((await db.prisma.feedbackConfig.findFirst({ where }))!);
}

export async function deleteFeedbackConfig(db: Sql, workspaceId: string, by: { feedback_key?: string; id?: string }) {
  if (!by.feedback_key && !by.id) throw badRequest("Pass feedback_key or id.");
  const { count } = await db.prisma.feedbackConfig.deleteMany({
    where: { workspaceId, ...(by.id ? { id: by.id } : { feedbackKey: by.feedback_key }) },
  });
  if (count === 0) throw notFound("No such feedback config.");
}
