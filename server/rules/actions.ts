import type { Sql } from "../db/client";
import { runsByIds } from "../runs/lookup";
import { insertFeedback } from "../feedback/store";
import { isoFromDb } from "../core/time";
import { addRunsToQueue } from "../review/queues/items";
import { loadQueue } from "../review/queues/queues";
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
  // prettier-ignore
  const rows = await runsByIds<RuleRun>(db, workspaceId, ids, [
    "trace_id", "parent_run_id", "project_id", "name", "run_type", "status", "start_time", "end_time", "inputs", "outputs", "error",
    "extra", "tags", "total_tokens", "total_cost",
  ]);
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

export type ActionKind = "add_feedback" | "add_to_dataset" | "add_to_annotation_queue";

/**
 * Does one of the rule's database actions on the run, in the caller's transaction; returns what
 * the log says it made. `delivery` (the action's idempotency key) is the feedback's id, so the
 * feedback is one row however often the action runs.
 */
export async function applyAction(db: Sql, rule: Rule, run: RuleRun, action: ActionKind, delivery: string): Promise<string> {
  if (action === "add_feedback") {
    const fb = rule.addFeedback;
    if (!fb) throw new ActionGone("the rule no longer gives feedback");
    const [feedbackId] = await insertFeedback(db, rule.workspaceId, [
      {
        id: delivery,
        run_id: run.id,
        trace_id: run.trace_id,
        key: fb.key,
        score: fb.score,
        value: fb.value,
        comment: fb.comment,
        feedback_source: { type: "auto_eval", metadata: { rule_id: rule.id } },
      },
    ]);
    return `feedback ${feedbackId}`;
  }
  if (action === "add_to_dataset") {
    if (!rule.addToDatasetId) throw new ActionGone("the rule no longer adds to a dataset");
    return `example ${await addRunToDataset(db, rule.workspaceId, rule.addToDatasetId, run)}`;
  }
  if (!rule.addToAnnotationQueueId) throw new ActionGone("the rule no longer adds to an annotation queue");
  const queue = await loadQueue(db, rule.workspaceId, rule.addToAnnotationQueueId);
  if (queue.queueType === "pairwise")
    throw new ActionSkipped(`${pairwiseRefusal(queue.name)}; this run was not added. Point the rule at a single-run queue.`);
  const [item] = await addRunsToQueue(db, rule.workspaceId, rule.addToAnnotationQueueId, [{ run_id: run.id }]);
  return `queue run ${item.id}`;
}

/** The rule was changed after the run was claimed and no longer has this action: nothing to retry. */
export class ActionGone extends Error {}

/** The action cannot apply to this run, and never will (logged as skipped with the reason, not retried). */
export class ActionSkipped extends Error {}

/** Why a rule cannot add runs to a pairwise queue (refused at create / update; a rule made before skips). */
export const pairwiseRefusal = (queueName: string) =>
  `"${queueName}" is a pairwise queue: it takes pairs of runs (run A and run B, e.g. two experiments' runs of one example), ` +
  `not the single runs a rule adds`;

/** The body a webhook receiver gets for one run. */
export const webhookBody = (rule: Rule, run: RuleRun) => ({ rule_id: rule.id, rule_name: rule.displayName, run: runPayload(run) });
