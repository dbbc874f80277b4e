import type { Sql } from "../db/client";
import { fromStorage } from "../db/storable";
import { sql } from "../db/sql";
import { env } from "../env";
import { EgressRefused } from "../egress/http";
import type { Job } from "../jobs/queue";
import { onJobs } from "../jobs/queue";
import { currentExamples } from "../datasets/examples";
import { runsForEvaluation } from "../runs/lookup";
import { streamChat, UpstreamError } from "../models/chat";
import { tryAdmit } from "../models/admission";
import { resolveConnection } from "../models/connections";
import type { ChatRequest, ChatResult, Connection } from "../models/types";
import { spendBlocked } from "../spend/limits";
import { runCodeEvaluations, type CodeTarget } from "./code";
import { renderPrompt, variablesFor } from "./prompt";
import { evaluationQueue, requeueEvaluation, type EvaluationJob } from "./queues";
import { recordEvaluations, type Outcome } from "./record";
import { asEvaluator, type Evaluator } from "./store";
import { verdictFeedback, verdictTool, VerdictError } from "./verdict";

/** Model calls per evaluation before it gives up (the first and the retries after 429/5xx). */
export const MAX_ATTEMPTS = 5;
const MAX_DELAY_MS = 10 * 60_000;

type Target = CodeTarget & { workspace_id: string };

/** The runs to judge, each with its example's current outputs when it is an experiment's run. */
async function loadTargets(db: Sql, ids: string[]): Promise<Map<string, Target>> {
  const runs = await runsForEvaluation(db, ids);
  const examples = await currentExamples(db, [...new Set(runs.flatMap((r) => (r.reference_example_id ? [r.reference_example_id] : [])))]);
  const exampleOf = new Map(examples.map((e) => [`${e.workspace_id}:${e.example_id}`, e]));
  const targets = runs.map(({ reference_example_id, ...run }): Target => {
    const example = reference_example_id ? exampleOf.get(`${run.workspace_id}:${reference_example_id}`) : undefined;
    return fromStorage({
      ...run,
      reference: example?.outputs ?? null,
      example_id: example?.example_id ?? null,
      example_inputs: example?.inputs ?? null,
      example_metadata: example?.metadata ?? null,
    });
  });
  return new Map(targets.map((t) => [t.id, t]));
}

/** The jobs whose evaluation is not written yet (a job run again after its instance died finds its work done). */
async function notYetEvaluated(db: Sql, jobs: EvaluationJob[]): Promise<EvaluationJob[]> {
  const done = await db.query<{ rule_id: string; run_id: string }>(sql`
    SELECT rule_id, run_id FROM evaluations
    WHERE rule_id = ANY(${[...new Set(jobs.map((j) => j.rule_id))]}::uuid[]) AND run_id = ANY(${jobs.map((j) => j.run_id)}::uuid[])`);
  const seen = new Set(done.map((d) => `${d.rule_id}:${d.run_id}`));
  return jobs.filter((j) => !seen.has(`${j.rule_id}:${j.run_id}`));
}

const backoffMs = (attempt: number, retryAfterSeconds: number | null) =>
  Math.min(MAX_DELAY_MS, Math.max((retryAfterSeconds ?? 0) * 1000, env().EVALUATOR_RETRY_BASE_MS * 2 ** (attempt - 1)));

const retriable = (error: unknown): error is UpstreamError =>
  error instanceof UpstreamError && (error.status === null || error.status === 429 || error.status >= 500);

/**
 * One evaluation's model call and verdict. Answers the outcome to record, or null when the job was
 * queued again (a retriable failure with attempts left, or the connection's limit used up).
 */
async function judge(db: Sql, job: EvaluationJob, evaluator: Evaluator, target: Target, connection: Connection): Promise<Outcome | null> {
  const waitMs = await tryAdmit(connection);
  if (waitMs !== null) {
    await requeueEvaluation(db, job, new Date(Date.now() + waitMs), "defer");
    return null;
  }
  const request: ChatRequest = {
    model: evaluator.model ?? connection.defaultModel,
    messages: renderPrompt(evaluator.prompt, evaluator.templateFormat, variablesFor(target, evaluator.variableMapping)),
    ...verdictTool(evaluator.outputSchema),
  };
  const startedAt = new Date();
  let result: ChatResult | null = null;
  try {
    result = await streamChat(connection, request);
    return { job, target, evaluator, connection, request, result, startedAt, feedback: verdictFeedback(evaluator.outputSchema, result) };
  } catch (error) {
    if (retriable(error) && job.attempt < MAX_ATTEMPTS) {
      await requeueEvaluation(db, job, new Date(Date.now() + backoffMs(job.attempt, error.retryAfterSeconds)), "retry");
      return null;
    }
    if (!(error instanceof UpstreamError || error instanceof VerdictError || error instanceof EgressRefused)) throw error;
    const status = error instanceof UpstreamError ? error.status : null;
    const gaveUp = retriable(error) ? `gave up after ${job.attempt} attempts: ` : "";
    return { job, target, evaluator, connection, request, result, startedAt, error: `${gaveUp}${error.message}`, status };
  }
}

/**
 * A batch of evaluations: the pending ones' model calls go out at once, and the code evaluators'
 * functions run in the sandbox meanwhile; the verdicts (and the failures that will not be retried)
 * are recorded together. An evaluation whose rule, evaluator or run is gone is dropped; one whose
 * connection cannot be resolved fails with that reason.
 */
export async function runEvaluations(db: Sql, jobs: Job<EvaluationJob>[]): Promise<void> {
  const pending = await notYetEvaluated(
    db,
    jobs.map((j) => j.data),
  );
  if (pending.length === 0) return;
  const [targets, evaluatorRows, rules] = await Promise.all([
    loadTargets(
      db,
      pending.map((j) => j.run_id),
    ),
    db.prisma.evaluator.findMany({ where: { id: { in: [...new Set(pending.map((j) => j.evaluator_id))] } } }),
    db.prisma.runRule.findMany({ where: { id: { in: [...new Set(pending.map((j) => j.rule_id))] } }, select: { id: true } }),
  ]);
  const evaluators = new Map(evaluatorRows.map((e) => [e.id, asEvaluator(e)]));
  const liveRules = new Set(rules.map((r) => r.id));
  const connections = new Map<string, Promise<Connection>>();
  const connectionOf = (e: Evaluator) => {
    const key = `${e.workspaceId}:${e.connectionId ?? ""}`;
    if (!connections.has(key)) connections.set(key, resolveConnection(db, e.workspaceId, e.connectionId));
    return connections.get(key)!;
  };
  const live = pending.flatMap((job) => {
    const evaluator = evaluators.get(job.evaluator_id);
    const target = targets.get(job.run_id);
    if (!evaluator || !target || target.workspace_id !== job.workspace_id || !liveRules.has(job.rule_id)) return [];
    return [{ job, evaluator, target }];
  });
  // Model calls past a spend limit (the workspace's evaluators', or the evaluator's own) are skipped:
  // recorded, so they are not tried again, and logged in the rule's logs with the limit reached.
  const blocked = new Map<string, Promise<string | null>>();
  const blockedFor = (e: Evaluator) => {
    const key = `${e.workspaceId}:${e.id}`;
    if (!blocked.has(key))
      blocked.set(key, spendBlocked(db, e.workspaceId, [{ target: "evaluators" }, { target: "evaluator", evaluatorId: e.id }]));
    return blocked.get(key)!;
  };
  const [code, judged] = await Promise.all([
    runCodeEvaluations(live.filter((l) => l.evaluator.type === "code")),
    Promise.all(
      live
        .filter((l) => l.evaluator.type !== "code")
        .map(async ({ job, evaluator, target }): Promise<Outcome | null> => {
          const limit = await blockedFor(evaluator);
          if (limit) return { job, target, evaluator, skipped: limit };
          let connection: Connection;
          try {
            connection = await connectionOf(evaluator);
          } catch (error) {
            return { job, target, evaluator, error: (error as Error).message, status: null };
          }
          return judge(db, job, evaluator, target, connection);
        }),
    ),
  ]);
  await recordEvaluations(db, [...code, ...judged.filter((o): o is Outcome => o !== null)]);
}

onJobs(evaluationQueue, runEvaluations);
