import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { compileFilter } from "../runs/filter";

/** Refuses (400, with the position) a filter the query language cannot read. */
export function checkRuleFilter(filter: string): void {
  compileFilter(filter, "r");
}

/**
 * Finished runs of the rule's project that pass its filter and that the rule has not considered
 * yet: among `candidates` after ingest, or the project's newest runs when triggered by hand.
 */
export async function unconsideredMatches(
  db: Sql,
  rule: { id: string; workspaceId: string; projectId: string; filter: string | null },
  candidates: string[] | null,
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(sql`
    SELECT r.id FROM runs r
    WHERE r.workspace_id = ${rule.workspaceId} AND r.project_id = ${rule.projectId} AND r.end_time IS NOT NULL
      ${candidates ? sql`AND r.id = ANY(${candidates}::uuid[])` : sql``}
      ${rule.filter ? sql`AND (${compileFilter(rule.filter, "r")})` : sql``}
      AND NOT EXISTS (SELECT 1 FROM run_rule_runs c WHERE c.rule_id = ${rule.id} AND c.run_id = r.id)
    ORDER BY r.start_time DESC, r.id
    LIMIT ${limit}`);
  return rows.map((r) => r.id);
}
