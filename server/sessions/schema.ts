import { z } from "zod";
import { flag, jsonObjectParam, many } from "../http/query-params";
import { uuid } from "../core/uuid";
import { wireRunStats } from "../runs/stats";

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
export type WireSessionListQuery = z.infer<typeof sessionListQuery>;

/** Which projects of the workspace, in the domain's words: every field narrows, absent fields do not. */
export interface SessionFilter {
  name?: string;
  nameContains?: string;
  ids?: string[];
  referenceDatasetIds?: string[];
  /** true: only tracing projects (no dataset); false: only experiments. */
  referenceFree?: boolean;
  /** A JSON object the project's metadata must contain. */
  metadata?: Record<string, unknown>;
  includeStats?: boolean;
  /** 0 and 100 when absent. */
  offset?: number;
  limit?: number;
}

/** GET /sessions' query parameters as a filter. */
export function sessionFilterFromWire(q: WireSessionListQuery): SessionFilter {
  return {
    name: q.name,
    nameContains: q.name_contains,
    ids: q.id,
    referenceDatasetIds: q.reference_dataset,
    referenceFree: q.reference_free,
    metadata: q.metadata,
    includeStats: q.include_stats,
    offset: q.offset,
    limit: q.limit,
  };
}

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

/** A project as the SDKs read it (a TracerSession: tenant_id is the workspace). */
export const wireProject = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  extra: z.record(z.string(), z.unknown()),
  reference_dataset_id: z.string().nullable(),
  default_dataset_id: z.null(),
  /** Trace retention (null: kept until the project is deleted); see server/runs/retention.ts. */
  trace_tier: z.enum(["shortlived", "longlived"]).nullable(),
  long_lived_retention_days: z.number().nullable(),
});
export type WireProject = z.infer<typeof wireProject>;

/** A project's statistics, as the projects list shows them. */
export const wireProjectStats = wireRunStats.omit({ median_tokens: true, tokens_p99: true, cost_p50: true, cost_p99: true });
export type ProjectStats = z.infer<typeof wireProjectStats>;

/** A project with its statistics when they were asked for. */
export const wireProjectWithStats = wireProject.extend(wireProjectStats.partial().shape);
export type ProjectWithStats = z.infer<typeof wireProjectWithStats>;

/** What DELETE /sessions removed. */
export const wireDeleted = z.object({
  projects: z.number(),
  runs: z.number(),
  feedback: z.number(),
  attachments: z.number(),
  chart_sets: z.number(),
});
export type Deleted = z.infer<typeof wireDeleted>;
