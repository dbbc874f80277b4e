import { z } from "zod";
import type { Sql } from "../db/client";
import { traceRunIdsBelowRoot, runsByIds } from "../runs/lookup";
import { notFound } from "../core/errors";
import { feedbackToWire } from "../feedback/wire";
import { readRun, readRuns } from "../runs/read";
import { runIdOf } from "./ids";
import { toObservation, toScore, toTrace, type LangfuseIdOf } from "./wire";

/** The most runs of one trace a Langfuse trace answer carries. */
const TRACE_RUN_LIMIT = 20_000;

/**
 * The project a Langfuse key reads: the one its public key names (Langfuse keys are per project).
 * Undefined when the caller sent no public key (x-api-key: the whole workspace); null when no
 * project has that name, so nothing is found.
 */
async function projectOf(db: Sql, workspaceId: string, publicKey: string | undefined): Promise<string | null | undefined> {
  if (!publicKey?.trim()) return undefined;
  const project = await db.prisma.project.findFirst({ where: { workspaceId, name: publicKey.trim() }, select: { id: true } });
  return project?.id ?? null;
}

const visible = (project: string | null | undefined, runProject: string) => project === undefined || project === runProject;

/** The ids the runs were sent with (kept in their metadata), in one statement. */
async function langfuseIds(db: Sql, workspaceId: string, runIds: (string | null)[]): Promise<LangfuseIdOf> {
  const ids = [...new Set(runIds.filter((id): id is string => !!id))];
  const rows = ids.length
    ? await runsByIds<{ id: string; is_root: boolean; extra: { metadata?: Record<string, unknown> } | null }>(db, workspaceId, ids, [
        "is_root",
        "extra",
      ])
    : [];
  const key = (value: unknown) =>
    value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);
  const keys = new Map(
    rows.map((r) => {
      const [traceKey, observationKey] = [key(r.extra?.metadata?.langfuse_trace_id), key(r.extra?.metadata?.langfuse_observation_id)];
      return [r.id, (r.is_root ? (traceKey ?? observationKey) : observationKey) ?? r.id];
    }),
  );
  return (id) => (id === null ? null : (keys.get(id) ?? id));
}

/** GET /api/public/traces/{traceId}: the trace's root run with its observations and scores. */
export async function readLangfuseTrace(db: Sql, workspaceId: string, publicKey: string | undefined, traceId: string) {
  const [project, root] = await Promise.all([projectOf(db, workspaceId, publicKey), readRun(db, workspaceId, runIdOf(traceId))]);
  if (!root || root.parent_run_id || !visible(project, root.session_id)) throw notFound(`Trace ${traceId} not found.`);
  const ids = await traceRunIdsBelowRoot(db, workspaceId, root.id, TRACE_RUN_LIMIT);
  const [observations, feedback, idOf] = await Promise.all([
    readRuns(db, workspaceId, ids),
    db.prisma.feedback.findMany({ where: { workspaceId, traceId: root.id }, orderBy: { createdAt: "asc" } }),
    langfuseIds(db, workspaceId, [root.id, ...ids]),
  ]);
  return toTrace(root, observations, feedback.map(feedbackToWire), idOf);
}

/** GET /api/public/observations/{observationId}. */
export async function readLangfuseObservation(db: Sql, workspaceId: string, publicKey: string | undefined, observationId: string) {
  const [project, run] = await Promise.all([projectOf(db, workspaceId, publicKey), readRun(db, workspaceId, runIdOf(observationId))]);
  if (!run || !visible(project, run.session_id)) throw notFound(`Observation ${observationId} not found.`);
  return toObservation(run, await langfuseIds(db, workspaceId, [run.id, run.trace_id, run.parent_run_id]));
}

export const scoresQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  traceId: z.string().optional(),
  observationId: z.string().optional(),
  name: z.string().optional(),
});

/** GET /api/public/scores: the project's scores (feedback), newest first, a page at a time. */
export async function listLangfuseScores(db: Sql, workspaceId: string, publicKey: string | undefined, query: z.infer<typeof scoresQuery>) {
  const project = await projectOf(db, workspaceId, publicKey);
  if (project === null) return { data: [], meta: { page: query.page, limit: query.limit, totalItems: 0, totalPages: 0 } };
  const where = {
    workspaceId,
    ...(project === undefined ? {} : { projectId: project }),
    ...(query.traceId ? { traceId: runIdOf(query.traceId) } : {}),
    ...(query.observationId ? { runId: runIdOf(query.observationId) } : {}),
    ...(query.name ? { key: query.name } : {}),
  };
  const [total, rows] = await Promise.all([
    db.prisma.feedback.count({ where }),
    db.prisma.feedback.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
    }),
  ]);
  const feedback = rows.map(feedbackToWire);
  const idOf = await langfuseIds(
    db,
    workspaceId,
    feedback.flatMap((f) => [f.run_id, f.trace_id]),
  );
  return {
    data: feedback.map((f) => toScore(f, idOf)),
    meta: { page: query.page, limit: query.limit, totalItems: total, totalPages: Math.ceil(total / query.limit) },
  };
}
