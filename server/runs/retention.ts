import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { onEvery } from "../jobs/queue";

export const SHORT_DAYS = 14;
export const LONG_DAYS = 400;
const BATCH = 500;

/** Whether the trace of run `r` is extended: it has feedback, a run of it became an example or is in an annotation queue, or a client asked for it. */
export const extendedTrace = sql`(
  EXISTS (SELECT 1 FROM feedback f WHERE f.workspace_id = r.workspace_id AND f.trace_id = r.trace_id)
  OR EXISTS (SELECT 1 FROM runs x JOIN example_versions e ON e.source_run_id = x.id WHERE x.trace_id = r.trace_id)
  OR EXISTS (SELECT 1 FROM runs x JOIN annotation_queue_runs q ON q.run_id = x.id WHERE x.trace_id = r.trace_id)
  OR EXISTS (SELECT 1 FROM extended_traces x WHERE x.workspace_id = r.workspace_id AND x.trace_id = r.trace_id))`;

/**
 * Deletes the traces that outlived their project's retention (`trace_tier`, see migration
 * 20261126000800_retention): in a "shortlived" project a trace older than 14 days unless it is
 * extended — it has feedback, a run of it became an example or is in an annotation queue, or a
 * client asked for it (`extendTraces`) — and any
 * trace older than `long_lived_retention_days` (400); in a "longlived" project any trace older than
 * that. A trace goes whole (its runs, their attachments' records — whose files the blob sweep then
 * frees — and its totals), in batches of 500 traces, each its own short transaction so ingest never
 * waits on it. Projects without a tier keep their traces. Answers how many traces were deleted.
 */
export async function expireTraces(db: Sql): Promise<number> {
  const projects = await db.prisma.project.findMany({
    where: { traceTier: { not: null } },
    select: { id: true, workspaceId: true, traceTier: true, longLivedRetentionDays: true },
  });
  let deleted = 0;
  for (const project of projects) {
    const longDays = project.longLivedRetentionDays ?? LONG_DAYS;
    const firstCutoff = project.traceTier === "shortlived" ? Math.min(SHORT_DAYS, longDays) : longDays;
    for (;;) {
      const traces = await db.tx(async (t) => {
        const ids = (
          await t.query<{ trace_id: string }>(sql`
            SELECT r.trace_id FROM runs r
            WHERE r.workspace_id = ${project.workspaceId} AND r.project_id = ${project.id} AND r.is_root
              AND r.start_time < now() - make_interval(days => ${firstCutoff})
              AND (r.start_time < now() - make_interval(days => ${longDays}) OR NOT ${extendedTrace})
            LIMIT ${BATCH}`)
        ).map((r) => r.trace_id);
        if (ids.length === 0) return 0;
        await t.query(sql`DELETE FROM trace_totals WHERE workspace_id = ${project.workspaceId} AND trace_id = ANY(${ids}::uuid[])`);
        await t.query(sql`DELETE FROM extended_traces WHERE workspace_id = ${project.workspaceId} AND trace_id = ANY(${ids}::uuid[])`);
        await t.query(sql`DELETE FROM runs WHERE workspace_id = ${project.workspaceId} AND trace_id = ANY(${ids}::uuid[])`);
        return ids.length;
      });
      deleted += traces;
      if (traces < BATCH) break;
    }
  }
  return deleted;
}

/**
 * Upgrades the traces of these runs of the workspace to extended retention for good (a client's
 * `extend_trace_retention=true`), whatever becomes of what they were sent with.
 */
export async function extendTraces(db: Sql, workspaceId: string, runIds: string[]): Promise<void> {
  const runs = await db.prisma.run.findMany({
    where: { workspaceId, id: { in: runIds } },
    select: { traceId: true },
    distinct: ["traceId"],
  });
  await db.prisma.extendedTrace.createMany({ data: runs.map(({ traceId }) => ({ workspaceId, traceId })), skipDuplicates: true });
}

onEvery(
  "trace-retention",
  () => 600,
  async (db) => void (await expireTraces(db)),
);
