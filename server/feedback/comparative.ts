import type { Sql } from "../db/client";

/** The scores recorded for a comparison of experiments (`comparative_experiment_id`), per run and key. */
export async function comparativeFeedback(db: Sql, workspaceId: string, comparativeId: string) {
  const rows = await db.prisma.feedback.findMany({
    where: { workspaceId, comparativeExperimentId: comparativeId, runId: { not: null } },
    select: { runId: true, key: true, score: true },
  });
  return rows.map((r) => ({ runId: r.runId!, key: r.key, score: r.score }));
}
