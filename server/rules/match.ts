import type { Sql } from "../db/client";
import { sql, type SqlFragment } from "../db/sql";
import { compileFilter } from "../runs/filter";
import { countRunsWhere, runIdsWhere, runStartsWhere } from "../runs/sets";

/** Refuses (400, with the position) a filter the query language cannot read. */
export function checkRuleFilter(filter: string): void {
  compileFilter(filter, "r");
}

export interface RuleTarget {
  id: string;
  workspaceId: string;
  projectId: string | null;
  datasetId: string | null;
  filter: string | null;
}

/**
 * The finished runs a rule is about, as conditions on `r`: its project's runs, or, for a rule on a
 * dataset, the root runs of the dataset's experiments; passing its filter.
 */
function scope(rule: RuleTarget): SqlFragment {
  const where = rule.projectId
    ? sql`r.project_id = ${rule.projectId}`
    : sql`r.parent_run_id IS NULL AND r.project_id IN (
        SELECT p.id FROM projects p WHERE p.workspace_id = ${rule.workspaceId} AND p.reference_dataset_id = ${rule.datasetId})`;
  return sql`r.workspace_id = ${rule.workspaceId} AND ${where} AND r.end_time IS NOT NULL
    ${rule.filter ? sql`AND (${compileFilter(rule.filter, "r")})` : sql``}`;
}

const unconsidered = (rule: RuleTarget) => sql`NOT EXISTS (SELECT 1 FROM run_rule_runs c WHERE c.rule_id = ${rule.id} AND c.run_id = r.id)`;

/**
 * Runs the rule is about and has not considered yet: among `candidates` (a claimed page of new
 * runs: those written since the rule was made, so a rule made while the claim is behind does not
 * reach back, which is a backfill's or a trigger's to do), or the newest ones when triggered by hand.
 */
export async function unconsideredMatches(
  db: Sql,
  rule: RuleTarget & { createdAt: Date },
  candidates: string[] | null,
  limit: number,
): Promise<string[]> {
  const among = candidates
    ? sql`AND r.id = ANY(${candidates}::uuid[]) AND r.updated_at >= ${rule.createdAt.toISOString()}::timestamptz`
    : sql``;
  return runIdsWhere(db, sql`${scope(rule)} ${among} AND ${unconsidered(rule)}`, sql`r.start_time DESC, r.id`, limit);
}

export interface TimeRange {
  start: Date;
  end: Date;
}

/** How many runs of a time range the rule is about and has not considered (a backfill's size). */
export async function countUnconsidered(db: Sql, rule: RuleTarget, range: TimeRange): Promise<number> {
  return countRunsWhere(
    db,
    sql`${scope(rule)} AND r.start_time >= ${range.start.toISOString()} AND r.start_time < ${range.end.toISOString()}
      AND ${unconsidered(rule)}`,
  );
}

/**
 * The next page of a backfill: runs of the range after the cursor (start time, id), oldest first,
 * whether or not the rule considered them (the claim decides), so a page read again after a
 * restart finds the same runs.
 */
export async function rangePage(
  db: Sql,
  rule: RuleTarget,
  range: TimeRange,
  after: { time: string; id: string } | null,
  limit: number,
): Promise<{ id: string; start_time: string }[]> {
  return runStartsWhere(
    db,
    sql`${scope(rule)} AND r.start_time >= ${range.start.toISOString()} AND r.start_time < ${range.end.toISOString()}
      ${after ? sql`AND (r.start_time, r.id) > (${after.time}::timestamptz, ${after.id}::uuid)` : sql``}`,
    limit,
  );
}
