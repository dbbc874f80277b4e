import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { postJson } from "../egress/http";
import { insertFeedback } from "../feedback/store";
import { isoFromDb } from "../core/time";
import { addRunsToQueue } from "../review/queues/items";
import { addRunToDataset } from "./dataset";
import type { Rule } from "./store";
import { fromStorage } from "../db/storable";

export interface RuleRun {
  id: string;
  trace_id: string;
  parent_run_id: string | null;
  project_id: string;
  name: string;
  run_type: string;
  status: string;
  start_time: string;
  end_time: string | null;
  inputs: unknown;
  outputs: unknown;
  error: string | null;
  extra: unknown;
  tags: string[];
  total_tokens: number | null;
  total_cost: string | null;
}

export async function loadRuleRuns(db: Sql, workspaceId: string, ids: string[]): Promise<RuleRun[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<RuleRun>(sql`
    SELECT id, trace_id, parent_run_id, project_id, name, run_type, status, start_time, end_time, inputs, outputs, error,
      extra, tags, total_tokens, total_cost
    FROM runs WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`);
  return rows.map(fromStorage);
}

/** The run as a webhook receiver gets it (LangSmith's names: session_id for the project). */
function runPayload(run: RuleRun) {
  return {
    id: run.id,
    trace_id: run.trace_id,
    parent_run_id: run.parent_run_id,
    session_id: run.project_id,
    name: run.name,
    run_type: run.run_type,
    status: run.status,
    start_time: isoFromDb(run.start_time),
    end_time: isoFromDb(run.end_time),
    inputs: run.inputs,
    outputs: run.outputs,
    error: run.error,
    extra: run.extra,
    tags: run.tags,
    total_tokens: run.total_tokens,
    total_cost: run.total_cost === null ? null : Number(run.total_cost),
  };
}

interface Outcome {
  action: "add_feedback" | "add_to_dataset" | "add_to_annotation_queue" | "webhook";
  ok: boolean;
  attempts?: number;
  status?: number | null;
  detail: string;
}

async function log(db: Sql, rule: Rule, runId: string, o: Outcome): Promise<void> {
  await db.prisma.runRuleLog.create({
    data: {
      id: randomUUID(),
      workspaceId: rule.workspaceId,
      ruleId: rule.id,
      runId,
      action: o.action,
      outcome: o.ok ? "success" : "error",
      attempts: o.attempts ?? 1,
      statusCode: o.status ?? null,
      detail: o.detail.slice(0, 2000),
    },
  });
}

/** Runs every action of the rule on one sampled run; each outcome is logged, none stops the others. */
export async function applyActions(db: Sql, rule: Rule, run: RuleRun): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const attempt = async (action: Outcome["action"], work: () => Promise<Omit<Outcome, "action">>) => {
    let outcome: Outcome;
    try {
      outcome = { action, ...(await work()) };
    } catch (error) {
      outcome = { action, ok: false, detail: (error as Error).message };
    }
    outcomes.push(outcome);
    await log(db, rule, run.id, outcome);
  };
  if (rule.addFeedback) {
    const fb = rule.addFeedback;
    await attempt("add_feedback", async () => {
      const [feedbackId] = await insertFeedback(db, rule.workspaceId, [
        {
          run_id: run.id,
          trace_id: run.trace_id,
          key: fb.key,
          score: fb.score,
          value: fb.value,
          comment: fb.comment,
          feedback_source: { type: "auto_eval", metadata: { rule_id: rule.id } },
        },
      ]);
      return { ok: true, detail: `feedback ${feedbackId}` };
    });
  }
  if (rule.addToDatasetId) {
    const datasetId = rule.addToDatasetId;
    await attempt("add_to_dataset", async () => ({
      ok: true,
      detail: `example ${await addRunToDataset(db, rule.workspaceId, datasetId, run)}`,
    }));
  }
  if (rule.addToAnnotationQueueId) {
    const queueId = rule.addToAnnotationQueueId;
    await attempt("add_to_annotation_queue", async () => {
      const [item] = await addRunsToQueue(db, rule.workspaceId, queueId, [{ run_id: run.id }]);
      return { ok: true, detail: `queue run ${item.id}` };
    });
  }
  for (const hook of rule.webhooks) {
    await attempt("webhook", async () => {
      const result = await postJson(
        hook.url,
        { rule_id: rule.id, rule_name: rule.displayName, run: runPayload(run) },
        { headers: hook.headers ?? {} },
      );
      return { ok: result.ok, attempts: result.attempts, status: result.status, detail: `${hook.url}: ${result.detail}` };
    });
  }
  return outcomes;
}
