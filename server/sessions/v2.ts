import { z } from "zod";
import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { flag, many } from "../http/query-params";
import { decodeOffset, encodeOffset } from "../core/offset-cursor";
import { uuid } from "../core/uuid";
import { listSessions, readSession } from "./service";

/** The project where every online evaluator of a workspace traces its model calls (LangSmith's EVALUATOR address). */
export const EVALUATOR_PROJECT = "evaluators";

/** GET /api/v2/sessions (the client's `sessions.listV2`): its filters that this deployment keeps. */
export const sessionListV2 = z.looseObject({
  id: many(uuid),
  name: z.string().optional(),
  name_contains: z.string().optional(),
  reference_dataset_id: many(uuid),
  include_stats: flag,
  type: many(z.enum(["PROJECT", "AGENT", "EXPERIMENT"])),
  cursor: z.string().max(1000).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * The workspace's tracing projects and experiments, a page at a time: `type` is EXPERIMENT for a
 * project that references a dataset, PROJECT otherwise (agents are not kept here).
 */
export async function listSessionsV2(db: Sql, workspaceId: string, q: z.infer<typeof sessionListV2>) {
  const offset = decodeOffset(q.cursor);
  const types = q.type ?? [];
  const wantsProjects = types.length === 0 || types.includes("PROJECT");
  const wantsExperiments = types.length === 0 || types.includes("EXPERIMENT");
  if (!wantsProjects && !wantsExperiments) return { items: [], next_cursor: null };
  const rows = await listSessions(db, workspaceId, {
    ids: q.id,
    name: q.name,
    nameContains: q.name_contains,
    referenceDatasetIds: q.reference_dataset_id,
    includeStats: q.include_stats ?? false,
    // Only projects, only experiments, or both.
    referenceFree: wantsExperiments ? (wantsProjects ? undefined : false) : true,
    offset,
    limit: q.page_size + 1,
  });
  const items = rows
    .slice(0, q.page_size)
    .map((s) => ({ ...s, type: s.reference_dataset_id ? ("EXPERIMENT" as const) : ("PROJECT" as const) }));
  return { items, next_cursor: rows.length > q.page_size ? encodeOffset(offset + q.page_size) : null };
}

/** GET /api/v1/sessions/resolutions (the client's `sessions.resolve`). */
export const resolveQuery = z.looseObject({
  kind: z.string().transform((v) => v.toUpperCase()),
  id: z.string().max(200).optional(),
  environment: z.string().optional(),
});

/**
 * The project an address names: an EXPERIMENT by its id; the EVALUATOR project, where the online
 * evaluators trace their calls. Agents are not kept on this deployment: 404.
 */
export async function resolveSession(db: Sql, workspaceId: string, q: z.infer<typeof resolveQuery>) {
  if (q.kind === "EXPERIMENT" && q.id) {
    const session = await readSession(db, workspaceId, q.id);
    if (!session.reference_dataset_id) throw notFound(`Project ${q.id} is not an experiment.`);
    return { session_id: session.id };
  }
  if (q.kind === "EVALUATOR") {
    const project = await db.prisma.project.findFirst({ where: { workspaceId, name: EVALUATOR_PROJECT }, select: { id: true } });
    if (!project) throw notFound("No evaluator has traced a call in this workspace yet.");
    return { session_id: project.id };
  }
  throw notFound(`No ${q.kind.toLowerCase()} address ${JSON.stringify(q.id ?? "")} on this deployment.`);
}
