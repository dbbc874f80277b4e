import type { Sql } from "../db/client";
import { readSpendLimit } from "../spend/limits";
import { measureMetric } from "./metric";
import type { AlertState, Comparison } from "./schema";
import type { Rule } from "./store";

export interface RuleMeasure {
  value: number | null;
  source: "rollups" | "scan" | "spend";
  windowStart: Date;
  windowEnd: Date;
}

/**
 * The rule's metric over its window ending at `end`; the evaluator spend share is the spend of
 * the limit's current window (day, week or month) over the limit, no data when no limit is set.
 */
export async function measureRule(db: Sql, rule: Rule, end: Date): Promise<RuleMeasure> {
  if (rule.metric === "evaluator_spend_share") {
    const limit = await readSpendLimit(db, rule.workspaceId, rule.evaluatorId ? "evaluator" : "evaluators", rule.evaluatorId);
    const value = !limit ? null : limit.limit_usd > 0 ? limit.spend_usd / limit.limit_usd : limit.spend_usd > 0 ? 1 : 0;
    return { value, source: "spend", windowStart: limit ? new Date(limit.window_start) : end, windowEnd: end };
  }
  const start = new Date(end.getTime() - rule.windowMinutes * 60_000);
  const measured = await measureMetric(db, {
    workspaceId: rule.workspaceId,
    projectId: rule.projectId!,
    filter: rule.filter,
    rootRunsOnly: rule.rootRunsOnly,
    metric: rule.metric,
    feedbackKey: rule.feedbackKey,
    feedbackValue: rule.feedbackValue,
    startMs: start.getTime(),
    endMs: end.getTime(),
  });
  return { ...measured, windowStart: start, windowEnd: end };
}

export function breaches(comparison: Comparison, value: number, threshold: number): boolean {
  switch (comparison) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}

/** The state a value puts the rule in: no data (nothing to judge in the window), firing, or ok. */
export const stateFor = (rule: Pick<Rule, "comparison" | "threshold">, value: number | null): AlertState =>
  value === null ? "no_data" : breaches(rule.comparison, value, rule.threshold) ? "firing" : "ok";

/** The event a change of state is: entering firing fires, leaving it resolves; the others are recorded only. */
export function eventKind(from: AlertState, to: AlertState): "fired" | "resolved" | "no_data" | "ok" | null {
  if (from === to) return null;
  if (to === "firing") return "fired";
  if (from === "firing") return "resolved";
  return to;
}
