import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { uuid } from "../core/uuid";

const category = z.object({ value: z.union([z.number(), z.string()]), label: z.string().nullish() });
const config = z.looseObject({
  type: z.enum(["continuous", "categorical", "freeform"]),
  min: z.number().nullish(),
  max: z.number().nullish(),
  categories: z.array(category).nullish(),
});

export const feedbackConfigCreate = z.object({
  feedback_key: z.string().min(1).max(256),
  feedback_config: config,
  is_lower_score_better: z.boolean().nullish(),
});
export type FeedbackConfigCreate = z.infer<typeof feedbackConfigCreate>;

export const feedbackConfigUpdate = z.object({
  feedback_key: z.string().min(1),
  feedback_config: config.nullish(),
  is_lower_score_better: z.boolean().nullish(),
});
export type FeedbackConfigUpdate = z.infer<typeof feedbackConfigUpdate>;

/** GET /feedback-configs: repeated `key`, a name fragment, paging. */
export const feedbackConfigListQuery = z.object({
  key: z.union([z.string(), z.array(z.string())]).optional().transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  name_contains: z.string().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** DELETE /feedback-configs: by key or by id. */
export const feedbackConfigDeleteQuery = z.object({ feedback_key: z.string().min(1).optional(), id: uuid.optional() });

interface ConfigRow {
  id: string;
  workspace_id: string;
  feedback_key: string;
  feedback_config: unknown;
  is_lower_score_better: boolean;
  created_at: string;
  modified_at: string;
}

const toWire = (row: ConfigRow) => ({
  id: row.id,
  tenant_id: row.workspace_id,
  feedback_key: row.feedback_key,
  feedback_config: row.feedback_config,
  is_lower_score_better: row.is_lower_score_better,
  created_at: isoFromDb(row.created_at),
  modified_at: isoFromDb(row.modified_at),
});

function checkConfig(c: z.infer<typeof config>): void {
  if (c.type === "continuous" && typeof c.min === "number" && typeof c.max === "number" && c.min > c.max) {
    throw badRequest("feedback_config.min must not be greater than max.");
  }
  if (c.type === "categorical" && (!c.categories || c.categories.length < 2)) {
    throw badRequest("A categorical feedback config needs at least two categories.");
  }
}

/** POST /feedback-configs: creating an identical config again returns it; a different one is refused. */
export async function createFeedbackConfig(db: Sql, workspaceId: string, input: FeedbackConfigCreate) {
  checkConfig(input.feedback_config);
  const [existing] = await db.query<ConfigRow>(sql`
    SELECT * FROM feedback_configs WHERE workspace_id = ${workspaceId} AND feedback_key = ${input.feedback_key}`);
  if (existing) {
    const same = isDeepStrictEqual(existing.feedback_config, input.feedback_config)
      && (input.is_lower_score_better == null || input.is_lower_score_better === existing.is_lower_score_better);
    if (!same) throw badRequest(`Feedback config already exists for key "${input.feedback_key}"; update it with PATCH.`);
    return toWire(existing);
  }
  const [row] = await db.query<ConfigRow>(sql`
    INSERT INTO feedback_configs (id, workspace_id, feedback_key, feedback_config, is_lower_score_better)
    VALUES (${randomUUID()}, ${workspaceId}, ${input.feedback_key}, ${JSON.stringify(input.feedback_config)}::jsonb,
      ${input.is_lower_score_better ?? false})
    ON CONFLICT (workspace_id, feedback_key) DO UPDATE SET modified_at = feedback_configs.modified_at
    RETURNING *`);
  return toWire(row);
}

export async function listFeedbackConfigs(db: Sql, workspaceId: string, q: z.infer<typeof feedbackConfigListQuery>) {
  const where: SqlFragment[] = [sql`workspace_id = ${workspaceId}`];
  if (q.key.length) where.push(sql`feedback_key = ANY(${q.key}::text[])`);
  if (q.name_contains) where.push(sql`strpos(lower(feedback_key), lower(${q.name_contains})) > 0`);
  const rows = await db.query<ConfigRow>(sql`
    SELECT * FROM feedback_configs WHERE ${join(where, " AND ")}
    ORDER BY feedback_key LIMIT ${q.limit} OFFSET ${q.offset}`);
  return rows.map(toWire);
}

export async function updateFeedbackConfig(db: Sql, workspaceId: string, input: FeedbackConfigUpdate) {
  if (input.feedback_config) checkConfig(input.feedback_config);
  const sets: SqlFragment[] = [sql`modified_at = now()`];
  if (input.feedback_config) sets.push(sql`feedback_config = ${JSON.stringify(input.feedback_config)}::jsonb`);
  if (input.is_lower_score_better != null) sets.push(sql`is_lower_score_better = ${input.is_lower_score_better}`);
  const [row] = await db.query<ConfigRow>(sql`
    UPDATE feedback_configs SET ${join(sets)}
    WHERE workspace_id = ${workspaceId} AND feedback_key = ${input.feedback_key} RETURNING *`);
  if (!row) throw notFound(`No feedback config for key "${input.feedback_key}".`);
  return toWire(row);
}

export async function deleteFeedbackConfig(db: Sql, workspaceId: string, by: { feedback_key?: string; id?: string }) {
  if (!by.feedback_key && !by.id) throw badRequest("Pass feedback_key or id.");
  const rows = await db.query(sql`
    DELETE FROM feedback_configs WHERE workspace_id = ${workspaceId}
      AND ${by.id ? sql`id = ${by.id}` : sql`feedback_key = ${by.feedback_key}`} RETURNING id`);
  if (rows.length === 0) throw notFound("No such feedback config.");
}
