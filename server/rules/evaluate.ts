import type { Sql } from "../db/client";
import { queueEvaluations } from "../evaluators/queues";
import { sql } from "../db/sql";
import { projectsOfRuns } from "../runs/lookup";
import { queueActions } from "./deliver";
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
 * Claims the runs and enqueues, in the same transaction, every action of the rule on each sampled
 * run and its evaluation by the rule's evaluator: a run the rule has considered is always one whose
 * actions exist as durable jobs. A backfill (`backfillId`) queues only the evaluations.
 */
export async function claimAndQueue(
  db: Sql,
  rule: Rule,
  runIds: string[],
  backfillId: string | null = null,
): Promise<{ sampled: string[]; queued: number }> {
  return db.tx(async (tx) => {
    const sampled = await claim(tx, rule, runIds);
    let queued = backfillId ? 0 : await queueActions(tx, rule, sampled);
    if (rule.evaluatorId) {
      await queueEvaluations(tx, { ...rule, evaluatorId: rule.evaluatorId }, sampled, backfillId);
      queued += sampled.length;
    }
    return { sampled, queued };
  });
}

async function runRule(db: Sql, rule: Rule, candidates: string[] | null, limit: number): Promise<RuleReport> {
  const matched = await unconsideredMatches(db, rule, candidates, limit);
  const { sampled, queued } = await claimAndQueue(db, rule, matched);
  return { rule_id: rule.id, matched: matched.length, sampled: sampled.length, actions: { queued } };
}

/**
 * Every enabled rule of the runs' projects claims those runs that are finished, its actions
 * enqueued. Called by the claim (claim.ts) in its transaction.
 */
export async function evaluateRules(db: Sql, workspaceId: string, runIds: string[]): Promise<RuleReport[]> {
  if (runIds.length === 0) return [];
  const rules = await enabledRules(db, workspaceId, await projectsOfRuns(db, workspaceId, runIds));
  const reports: RuleReport[] = [];
  for (const rule of rules) reports.push(await runRule(db, rule, runIds, runIds.length));
  return reports;
}

/**
 * POST /runs/rules/{id}/trigger: applies the rule now to the project's finished runs that it has
 * not considered yet (a backfill), newest first, honouring its sampling rate; their actions are
 * queued like those of new runs.
 */
export async function triggerRule(db: Sql, workspaceId: string, ruleId: string, limit = 1000): Promise<RuleReport> {
  return runRule(db, await loadRule(db, workspaceId, ruleId), null, limit);
}
