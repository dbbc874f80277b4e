import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Sql } from "../db/client";
import { runsByIds } from "../runs/lookup";
import { sql } from "../db/sql";
import { nameUuid } from "../core/uuid";
import { insertFeedback } from "../feedback/store";
import { ingestRuns } from "../ingest/service";
import type { ChatRequest, ChatResult, Connection } from "../models/types";
import { llmRun } from "../playground/trace";
import { EVALUATOR_PROJECT } from "../sessions/v2";
import type { RunForEvaluation } from "./prompt";
import type { EvaluationJob } from "./queues";
import type { Evaluator } from "./store";
import type { VerdictFeedback } from "./verdict";

/** How one evaluation ended: a verdict (feedback), or an error that will not be retried. */
export type Outcome = {
  job: EvaluationJob;
  target: RunForEvaluation & { trace_id: string };
  evaluator: Evaluator;
  /** Present when the model was called: the call is traced. */
  connection?: Connection;
  request?: ChatRequest;
  result?: ChatResult | null;
  startedAt?: Date;
} & ({ feedback: VerdictFeedback[] } | { error: string; status: number | null } | { skipped: string });

/** Which instance judged, in the evaluator run's metadata (several app instances share the queue). */
const WORKER = `${hostname()}:${process.pid}`;

/** The evaluator's traced run of one evaluation: the same id however often the job runs. */
export const evaluatorRunId = (job: EvaluationJob) => nameUuid(`evaluator-run:${job.rule_id}:${job.run_id}`);

const called = (o: Outcome) => o.connection !== undefined && o.request !== undefined;

function tracedRun(o: Outcome) {
  const id = evaluatorRunId(o.job);
  return llmRun({
    id,
    traceId: id,
    // Where evaluator calls are traced, so their tokens and cost show like any project's.
    projectName: EVALUATOR_PROJECT,
    connection: o.connection!,
    request: o.request!,
    result: o.result ?? null,
    error: "error" in o ? o.error : null,
    startedAt: o.startedAt ?? new Date(),
    metadata: { evaluator_id: o.evaluator.id, evaluator: o.evaluator.name, rule_id: o.job.rule_id, run_id: o.target.id, worker: WORKER },
    tags: ["evaluator"],
  });
}

function feedbackOf(o: Outcome) {
  if (!("feedback" in o)) return [];
  // A code evaluator makes no model call, so there is no evaluator run to link to.
  const source = {
    type: "model",
    metadata: { rule_id: o.job.rule_id, evaluator_id: o.evaluator.id, ...(called(o) ? { __run: { run_id: evaluatorRunId(o.job) } } : {}) },
  };
  return o.feedback.map((f) => ({
    id: nameUuid(`feedback:${o.job.rule_id}:${o.target.id}:${f.key}`),
    run_id: o.target.id,
    trace_id: o.target.trace_id,
    key: f.key,
    score: f.score,
    value: f.value,
    comment: f.comment,
    feedback_source: source,
  }));
}

const logDetail = (o: Outcome) =>
  "feedback" in o
    ? `${o.feedback.map((f) => `${f.key}=${f.value ?? f.score}`).join(", ")}${called(o) ? ` (evaluator run ${evaluatorRunId(o.job)})` : ""}`
    : "skipped" in o
      ? `skipped: ${o.skipped}`
      : o.error;

const outcomeOf = (o: Outcome) => ("feedback" in o ? "success" : "skipped" in o ? "skipped" : "error");

/**
 * Records a batch's outcomes, per workspace: the evaluator calls are ingested as LLM runs of the
 * "evaluators" project (tokens and cost derived as for any run), then one transaction writes each
 * evaluation's row, its feedback and its line in its rule's logs; an evaluation written already (its
 * job ran twice) is skipped whole.
 */
export async function recordEvaluations(db: Sql, outcomes: Outcome[]): Promise<void> {
  const byWorkspace = new Map<string, Outcome[]>();
  for (const o of outcomes) byWorkspace.set(o.job.workspace_id, [...(byWorkspace.get(o.job.workspace_id) ?? []), o]);
  for (const [workspaceId, group] of byWorkspace) {
    const traced = group.filter(called);
    if (traced.length) await ingestRuns(db, workspaceId, { post: traced.map(tracedRun) });
    const costs = new Map(
      (
        await runsByIds<{ id: string; total_cost: string | null }>(
          db,
          workspaceId,
          traced.map((o) => evaluatorRunId(o.job)),
          ["total_cost"],
        )
      ).map((r) => [r.id, r.total_cost]),
    );
    const rows = group.map((o) => ({
      rule_id: o.job.rule_id,
      run_id: o.target.id,
      evaluator_id: o.evaluator.id,
      backfill_id: o.job.backfill_id,
      outcome: outcomeOf(o),
      evaluator_run_id: called(o) ? evaluatorRunId(o.job) : null,
      total_cost: costs.get(evaluatorRunId(o.job)) ?? null,
      attempts: o.job.attempt,
    }));
    // The evaluations, their feedback and their log lines are one transaction: a job that runs
    // again skips an evaluation written already (notYetEvaluated), so a log line written after the
    // commit would be lost for good by an instance that died in between.
    await db.transaction(async (tx) => {
      const inserted = await tx.query<{ rule_id: string; run_id: string }>(sql`
        INSERT INTO evaluations (rule_id, run_id, workspace_id, evaluator_id, backfill_id, outcome, evaluator_run_id, total_cost, attempts)
        SELECT v.rule_id, v.run_id, ${workspaceId}::uuid, v.evaluator_id, v.backfill_id, v.outcome, v.evaluator_run_id, v.total_cost, v.attempts
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(rule_id uuid, run_id uuid, evaluator_id uuid, backfill_id uuid,
          outcome text, evaluator_run_id uuid, total_cost numeric, attempts int)
        ON CONFLICT DO NOTHING
        RETURNING rule_id, run_id`);
      const keys = new Set(inserted.map((r) => `${r.rule_id}:${r.run_id}`));
      const written = group.filter((o) => keys.has(`${o.job.rule_id}:${o.target.id}`));
      if (written.length === 0) return;
      await insertFeedback(tx, workspaceId, written.flatMap(feedbackOf));
      await tx.prisma.runRuleLog.createMany({
        data: written.map((o) => ({
          id: randomUUID(),
          workspaceId,
          ruleId: o.job.rule_id,
          runId: o.target.id,
          action: "evaluator",
          outcome: outcomeOf(o),
          attempts: o.job.attempt,
          statusCode: "status" in o ? o.status : null,
          detail: logDetail(o).slice(0, 2000),
        })),
      });
    });
  }
}
