import type { Sql } from "../db/client";
import { queueEvaluations } from "../evaluators/queues";
import { afterIngest } from "../ingest/after-ingest";
import { defineQueue, jobsStarted, onJobs } from "../jobs/queue";
import { sql } from "../db/sql";
import { projectsOfRuns } from "../runs/lookup";
import { applyActions, loadRuleRuns } from "./actions";
import { unconsideredMatches } from "./match";
import { enabledRules, loadRule, type Rule } from "./store";
import type { RuleReport } from "./schema";

/**
 * Claims the runs for the rule, rolling the sampling dice once per run: the claim is one INSERT
 * ... ON CONFLICT DO NOTHING, so concurrent evaluations (another request, another instance)
 * never act on the same run twice. Returns the claimed runs that were sampled in.
 */
export async function claim(db: Sql, rule: Rule, runIds: string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rate = rule.samplingRate;
  const decisions = runIds.map((id) => ({ run_id: id, sampled: rate >= 1 || Math.random() < rate }));
  const claimed = await db.query<{ run_id: string; sampled: boolean }>(sql`
    INSERT INTO run_rule_runs (rule_id, run_id, sampled)
    SELECT ${rule.id}::uuid, v.run_id, v.sampled FROM jsonb_to_recordset(${JSON.stringify(decisions)}::jsonb) AS v(run_id uuid, sampled boolean)
    ON CONFLICT DO NOTHING
    RETURNING run_id, sampled`);
  return claimed.filter((c) => c.sampled).map((c) => c.run_id);
}

/**
 * Claims the runs and, for a rule with an evaluator, queues their evaluations in the same
 * transaction: a run the rule has considered is always one whose evaluation is queued.
 */
export async function claimAndQueue(db: Sql, rule: Rule, runIds: string[], backfillId: string | null = null): Promise<string[]> {
  const evaluatorId = rule.evaluatorId;
  if (!evaluatorId) return claim(db, rule, runIds);
  return db.tx(async (tx) => {
    const sampled = await claim(tx, rule, runIds);
    await queueEvaluations(tx, { ...rule, evaluatorId }, sampled, backfillId);
    return sampled;
  });
}

async function runRule(db: Sql, rule: Rule, candidates: string[] | null, limit: number): Promise<RuleReport> {
  const matched = await unconsideredMatches(db, rule, candidates, limit);
  const sampled = await claimAndQueue(db, rule, matched);
  const report: RuleReport = { rule_id: rule.id, matched: matched.length, sampled: sampled.length, actions: { succeeded: 0, failed: 0 } };
  for (const run of await loadRuleRuns(db, rule.workspaceId, sampled)) {
    for (const outcome of await applyActions(db, rule, run)) report.actions[outcome.ok ? "succeeded" : "failed"]++;
  }
  return report;
}

/** Every enabled rule of the runs' projects, over those runs that are finished. */
export async function evaluateRules(db: Sql, workspaceId: string, runIds: string[]): Promise<RuleReport[]> {
  if (runIds.length === 0) return [];
  const rules = await enabledRules(db, workspaceId, await projectsOfRuns(db, workspaceId, runIds));
  const reports: RuleReport[] = [];
  for (const rule of rules) reports.push(await runRule(db, rule, runIds, runIds.length));
  return reports;
}

/** The runs one ingest request stored, for the rules of their workspace. */
interface RulesJob {
  workspaceId: string;
  runIds: string[];
}

const rulesQueue = defineQueue<RulesJob>("rules", { batchSize: 20 });

onJobs(rulesQueue, async (db, jobs) => {
  for (const job of jobs) await evaluateRules(db, job.data.workspaceId, job.data.runIds);
});

/**
 * Ingest hands the runs it stored to the rules, after its commit: as a durable job that a worker
 * runs (with several instances, whichever worker claims it, once), when the workspace has any
 * enabled rule. A process without the job queue (a unit test) evaluates them at once instead.
 */
afterIngest("Automation rules", async (db, workspaceId, runIds) => {
  if (!(await db.prisma.runRule.count({ where: { workspaceId, isEnabled: true } }))) return;
  if (jobsStarted()) await rulesQueue.enqueue(db, [{ data: { workspaceId, runIds } }]);
  else await evaluateRules(db, workspaceId, runIds);
});

/**
 * POST /runs/rules/{id}/trigger: applies the rule now to the project's finished runs that it has
 * not considered yet (a backfill), newest first, honouring its sampling rate.
 */
export async function triggerRule(db: Sql, workspaceId: string, ruleId: string, limit = 1000): Promise<RuleReport> {
  return runRule(db, await loadRule(db, workspaceId, ruleId), null, limit);
}
