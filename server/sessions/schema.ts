import { z } from "zod";
import { flag, jsonObjectParam, many } from "../http/query-params";
import { uuid } from "../core/uuid";

/** GET /sessions query parameters as the SDKs send them (repeated `id`, booleans as text). */
export const sessionListQuery = z.looseObject({
  name: z.string().optional(),
  name_contains: z.string().optional(),
  id: many(uuid),
  include_stats: flag,
  reference_dataset: many(uuid),
  reference_free: flag,
  metadata: jsonObjectParam,
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type SessionListQuery = z.infer<typeof sessionListQuery>;

export const sessionReadQuery = z.looseObject({ include_stats: flag });

export const upsertQuery = z.looseObject({ upsert: flag });

const time = z.union([z.string(), z.number()]).nullish();

/** POST /sessions: JS sends name/extra/description, Python also a client-made id. */
export const sessionCreate = z.looseObject({
  id: uuid.nullish(),
  name: z.string().trim().min(1, "must not be empty").max(512),
  description: z.string().nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
  reference_dataset_id: uuid.nullish(),
  start_time: time,
  end_time: time,
});
export type SessionCreate = z.infer<typeof sessionCreate>;

/** PATCH /sessions/{id}: the JS client sends null for every field it is not changing. */
export const sessionUpdate = z.looseObject({
  name: z.string().trim().min(1, "must not be empty").max(512).nullish(),
  description: z.string().nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
  end_time: time,
  /** Trace retention: "shortlived" (14 days, extended traces longer), "longlived", or null to keep traces. */
  trace_tier: z.enum(["shortlived", "longlived"]).nullable().optional(),
  long_lived_retention_days: z.number().int().min(1).max(3650).nullable().optional(),
});
export type SessionUpdate = z.infer<typeof sessionUpdate>;

export const sessionDeleteQuery = z.looseObject({
  session_ids: many(z.string()).transform((v) =>
    v
      ?.flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean),
  ),
});
