import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { AppError, isUniqueViolation } from "../core/errors";
import { nameUuid } from "../core/uuid";
import { postJson } from "../egress/http";
import { env } from "../env";
import { defineQueue, onJobs } from "../jobs/queue";
import { ActionGone, ActionSkipped, applyAction, loadRuleRuns, webhookBody, type ActionKind, type RuleRun } from "./actions";
import { signature, SIGNATURE_HEADER } from "../egress/signature";
import { asRule, webhookSecret, type Rule } from "./store";

/**
 * Each action of a rule on a sampled run is a durable job, enqueued in the transaction that claims
 * the run: it is delivered at least once, whichever process dies when. Its `delivery` id is the
 * same for every attempt and every duplicate of one rule × run × action (a webhook's receiver gets
 * it as `X-Tracelight-Delivery`), and a success is logged under that id: the database actions and
 * their log commit together, so they happen exactly once; a webhook sent but not yet logged when
 * its process dies is sent again, with the same id.
 */
export interface ActionJob {
  workspace_id: string;
  rule_id: string;
  run_id: string;
  action: ActionKind | "webhook";
  /** The webhook's URL (its headers are read from the rule when sending). */
  url: string | null;
  delivery: string;
  attempt: number;
}

/** Failed attempts are retried with backoff (RULE_RETRY_BASE_MS, doubling) up to this many in all. */
export const ACTION_ATTEMPTS = 8;
export const DELIVERY_HEADER = "X-Tracelight-Delivery";

const actionQueue = defineQueue<ActionJob>("rule-action", { batchSize: 20 });
const jobId = (job: ActionJob) => nameUuid(`${job.delivery}:${job.attempt}`);

/** The rule's actions, as jobs for these runs (its evaluator's are queued by `evaluators`). */
function jobsFor(rule: Rule, runIds: string[]): ActionJob[] {
  const actions: { action: ActionJob["action"]; url: string | null }[] = [
    ...(rule.addFeedback ? [{ action: "add_feedback" as const, url: null }] : []),
    ...(rule.addToDatasetId ? [{ action: "add_to_dataset" as const, url: null }] : []),
    ...(rule.addToAnnotationQueueId ? [{ action: "add_to_annotation_queue" as const, url: null }] : []),
    ...rule.webhooks.map((w) => ({ action: "webhook" as const, url: w.url })),
  ];
  return runIds.flatMap((runId) =>
    actions.map(({ action, url }) => ({
      workspace_id: rule.workspaceId,
      rule_id: rule.id,
      run_id: runId,
      action,
      url,
      delivery: nameUuid(`rule-action:${rule.id}:${runId}:${action}:${url ?? ""}`),
      attempt: 1,
    })),
  );
}

/** Enqueues the rule's actions on these runs through `db` (the claim's transaction); returns how many. */
export async function queueActions(db: Sql, rule: Rule, runIds: string[]): Promise<number> {
  const jobs = jobsFor(rule, runIds);
  await actionQueue.enqueue(
    db,
    jobs.map((data) => ({ id: jobId(data), data })),
  );
  return jobs.length;
}

interface Outcome {
  ok: boolean;
  /** Not done, on purpose, and never will be (logged as `skipped`, not retried). */
  skipped?: boolean;
  status?: number | null;
  detail: string;
}

/** A log line of the rule; a success is written under the delivery id, so it is there once. */
async function log(db: Sql, job: ActionJob, id: string, o: Outcome): Promise<void> {
  await db.query(sql`
    INSERT INTO run_rule_logs (id, workspace_id, rule_id, run_id, action, outcome, attempts, status_code, detail)
    VALUES (${id}, ${job.workspace_id}, ${job.rule_id}, ${job.run_id}, ${job.action}, ${o.ok ? "success" : o.skipped ? "skipped" : "error"},
      ${job.attempt}, ${o.status ?? null}, ${o.detail.slice(0, 2000)})
    ON CONFLICT (id) DO NOTHING`);
}

/** A failed attempt is logged; one that may pass is tried again later, in the same transaction. */
async function failed(db: Sql, job: ActionJob, o: Outcome, retry: boolean): Promise<void> {
  const again = retry && job.attempt < ACTION_ATTEMPTS;
  const waitMs = env().RULE_RETRY_BASE_MS * 2 ** (job.attempt - 1);
  const detail = again
    ? `${o.detail} (attempt ${job.attempt} of ${ACTION_ATTEMPTS}, next in ${Math.round(waitMs / 1000)} s)`
    : retry
      ? `${o.detail} (gave up after ${ACTION_ATTEMPTS} attempts)`
      : o.detail;
  await db.tx(async (tx) => {
    await log(tx, job, randomUUID(), { ...o, detail });
    if (!again) return;
    const next = { ...job, attempt: job.attempt + 1 };
    await actionQueue.enqueue(tx, [{ id: jobId(next), data: next, startAfter: new Date(Date.now() + waitMs) }]);
  });
}

async function sendWebhook(db: Sql, rule: Rule, run: RuleRun, job: ActionJob): Promise<void> {
  const hook = rule.webhooks.find((w) => w.url === job.url);
  if (!hook) return failed(db, job, { ok: false, detail: `${job.url}: no longer a webhook of the rule` }, false);
  const body = webhookBody(rule, run);
  const secret = webhookSecret(hook);
  const headers = {
    ...(hook.headers ?? {}),
    [DELIVERY_HEADER]: job.delivery,
    ...(secret ? { [SIGNATURE_HEADER]: signature(secret, JSON.stringify(body)) } : {}),
  };
  const result = await postJson(hook.url, body, { headers, maxAttempts: 1 });
  const outcome = { ok: result.ok, status: result.status, detail: `${hook.url}: ${result.detail}` };
  if (result.ok) return log(db, job, job.delivery, outcome);
  // Refused URLs (never attempted) and 4xx answers other than 429 will not pass by waiting.
  const passing = result.attempts > 0 && (result.status === null || result.status >= 500 || result.status === 429);
  await failed(db, job, outcome, passing);
}

async function deliver(db: Sql, job: ActionJob): Promise<void> {
  const row = await db.prisma.runRule.findFirst({ where: { id: job.rule_id, workspaceId: job.workspace_id } });
  if (!row) return; // the rule is gone, and its logs with it
  const [done] = await db.query<{ id: string }>(sql`SELECT id FROM run_rule_logs WHERE id = ${job.delivery}`);
  if (done) return;
  const rule = asRule(row);
  const [run] = await loadRuleRuns(db, rule.workspaceId, [job.run_id]);
  if (!run) return failed(db, job, { ok: false, detail: "the run no longer exists" }, false);
  if (job.action === "webhook") return sendWebhook(db, rule, run, job);
  const action = job.action;
  try {
    await db.transaction(async (tx) => {
      const detail = await applyAction(tx, rule, run, action, job.delivery);
      // Not ON CONFLICT: a duplicate of this job that committed first rolls this one back.
      await tx.query(sql`
        INSERT INTO run_rule_logs (id, workspace_id, rule_id, run_id, action, outcome, attempts, detail)
        VALUES (${job.delivery}, ${job.workspace_id}, ${job.rule_id}, ${job.run_id}, ${action}, 'success', ${job.attempt}, ${detail})`);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return;
    // Logged once, under the delivery id, like a success: a duplicate of this job adds no line.
    if (error instanceof ActionSkipped) return log(db, job, job.delivery, { ok: false, skipped: true, detail: error.message });
    // A refusal (the dataset or queue is gone: 404) or a removed action stays so; anything else may pass.
    const lasting = (error instanceof AppError && error.status < 500) || error instanceof ActionGone;
    await failed(db, job, { ok: false, detail: (error as Error).message }, !lasting);
  }
}

/** A batch's actions run side by side (a slow webhook does not hold up the others). */
onJobs(actionQueue, async (db, jobs) => {
  const results = await Promise.allSettled(jobs.map((job) => deliver(db, job.data)));
  const failure = results.find((r) => r.status === "rejected");
  if (failure) throw failure.reason;
});
