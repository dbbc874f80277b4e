import type { Sql } from "../db/client";
import { nameUuid } from "../core/uuid";
import { defineQueue } from "../jobs/queue";

/**
 * One run to evaluate with a rule's evaluator. `attempt` counts model calls (a 429 or 5xx is tried
 * again, up to a bound); `deferred` counts waits for the connection's own calls-per-minute limit,
 * which spend no attempt.
 */
export interface EvaluationJob {
  workspace_id: string;
  rule_id: string;
  evaluator_id: string;
  run_id: string;
  backfill_id: string | null;
  attempt: number;
  deferred: number;
}

/** Evaluations: a batch's model calls go out together, and their feedback is written in one transaction. */
export const evaluationQueue = defineQueue<EvaluationJob>("evaluation", { batchSize: 50 });

/** The job's id is its rule, run and attempt: queueing the same evaluation twice is one job. */
const jobId = (j: EvaluationJob) => nameUuid(`evaluation:${j.rule_id}:${j.run_id}:${j.attempt}:${j.deferred}`);

/** Queues the evaluation of these runs by the rule's evaluator (through `db`: inside the caller's transaction). */
export async function queueEvaluations(
  db: Sql,
  rule: { id: string; workspaceId: string; evaluatorId: string },
  runIds: string[],
  backfillId: string | null = null,
): Promise<void> {
  await evaluationQueue.enqueue(
    db,
    runIds.map((runId) => {
      const data: EvaluationJob = {
        workspace_id: rule.workspaceId,
        rule_id: rule.id,
        evaluator_id: rule.evaluatorId,
        run_id: runId,
        backfill_id: backfillId,
        attempt: 1,
        deferred: 0,
      };
      return { id: jobId(data), data };
    }),
  );
}

/**
 * The evaluation again later: its next attempt after a model call failed for a reason that may pass
 * (429, 5xx, network), or the same attempt deferred while the connection's limit is used up.
 */
export async function requeueEvaluation(db: Sql, job: EvaluationJob, after: Date, kind: "retry" | "defer"): Promise<void> {
  const data = kind === "retry" ? { ...job, attempt: job.attempt + 1 } : { ...job, deferred: job.deferred + 1 };
  await evaluationQueue.enqueue(db, [{ id: jobId(data), data, startAfter: after }]);
}
