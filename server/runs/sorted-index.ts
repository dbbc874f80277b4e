import type { Sql } from "../db/client";
import { join, raw, sql, type SqlFragment } from "../db/sql";
import { runColumns, type RunRow } from "./columns";
import { runConditions } from "./conditions";
import type { RunSelection } from "./selection";

/** The measures read through indexes (migration 20261128060000_sorted_runs_index). */
export type IndexedMeasure = "total_tokens" | "total_cost";

/** The value a root run shows, as trace_totals' indexes hold it: its trace's total, else its own. */
const ROOT_VALUE: Record<IndexedMeasure, SqlFragment> = {
  total_tokens: sql`coalesce(tt.total_tokens, tt.root_total_tokens)`,
  total_cost: sql`coalesce(tt.total_cost, tt.root_total_cost)`,
};
/** The type both indexes compare a measure in (an integer column against a bigint is still an index condition). */
const VALUE_TYPE: Record<IndexedMeasure, SqlFragment> = { total_tokens: raw("bigint"), total_cost: raw("numeric") };

/**
 * How many entries of each index the attempts read: a filter the indexes cannot answer is checked
 * row by row over them; when too few match, a wider attempt, then the scan.
 */
const readsFor = (want: number) => [Math.max(200, 4 * want), Math.min(50_000, Math.max(2_000, 10 * want))];

/**
 * Whether the indexes can answer a selection: one project's runs, narrowed by conditions checked row
 * by row. A list of ids, a trace, a parent, reference examples and full-text search are few runs
 * found through indexes of their own: the scan is quicker there.
 */
export function indexable(s: RunSelection): s is RunSelection & { projectIds: [string] } {
  return !s.ids && s.projectIds?.length === 1 && !s.traceId && !s.parentRunId && !s.referenceExampleIds && !s.search;
}

/**
 * The first `want` runs of the selection by a measure (runs without it excluded), or null when the
 * indexes cannot tell them: the page reaches runs without the measure, or too few of the runs the
 * indexes rank first match the selection. Root runs come from trace_totals by the value they show,
 * the others from the partial indexes of runs; each attempt takes the K-th value of either index as
 * a bound and reads the runs strictly before it, so every run before the bound is considered and
 * the page is exact once `want` of them match.
 */
export async function indexedRuns(
  db: Sql,
  workspaceId: string,
  selection: RunSelection & { projectIds: [string] },
  measure: IndexedMeasure,
  dir: "asc" | "desc",
  want: number,
  reads = readsFor(want),
): Promise<RunRow[] | null> {
  const projectId = selection.projectIds[0];
  const order = raw(dir === "asc" ? "ASC" : "DESC");
  const roots = selection.isRoot !== false;
  const others = selection.isRoot !== true;
  const rootValue = ROOT_VALUE[measure];
  const otherValue = raw(`r.${measure}`);
  const rootsWhere = sql`tt.workspace_id = ${workspaceId} AND tt.project_id = ${projectId} AND ${rootValue} IS NOT NULL`;
  const othersWhere = sql`r.workspace_id = ${workspaceId} AND r.project_id = ${projectId} AND NOT r.is_root AND ${otherValue} IS NOT NULL`;
  const columns = runColumns("r", new Set());
  const where = runConditions(workspaceId, selection, "r");
  let last = { read: 0, matched: 0 };
  for (const most of reads) {
    // After a first attempt, read as far as its share of matching runs says the page needs (with
    // room); when that is further than this attempt may go, the scan is the shorter way.
    const needed = last.matched === 0 ? Infinity : Math.ceil(((last.read * want) / last.matched) * 1.5);
    if (last.read > 0 && needed > most) return null;
    const read = last.read === 0 ? most : needed;
    // The read-th value of each index (null: the index holds fewer), and the earlier of the two.
    const kth = (value: SqlFragment, from: SqlFragment) =>
      sql`(SELECT ${value} FROM ${from} ORDER BY 1 ${order} OFFSET ${read - 1} LIMIT 1)`;
    const bounds = [
      ...(roots ? [kth(rootValue, sql`trace_totals tt WHERE ${rootsWhere}`)] : []),
      ...(others ? [kth(otherValue, sql`runs r WHERE ${othersWhere}`)] : []),
    ];
    const [{ bound }] = await db.query<{ bound: string | null }>(
      sql`SELECT ${raw(dir === "asc" ? "least" : "greatest")}(${join(bounds)})::text AS bound`,
    );
    const before = (value: SqlFragment) =>
      bound === null ? sql`true` : sql`${value} ${raw(dir === "asc" ? "<" : ">")} ${bound}::${VALUE_TYPE[measure]}`;
    const branches = [
      ...(roots
        ? [
            // Fewer than `read` traces lie before the bound: their roots are probed one by one (OFFSET 0
            // keeps the planner from hashing every root of the project instead).
            sql`SELECT r.*, tt.sort_value
              FROM (SELECT tt.trace_id, ${rootValue} AS sort_value FROM trace_totals tt WHERE ${rootsWhere} AND ${before(rootValue)}
                    ORDER BY 2 ${order} LIMIT ${read}) tt
              CROSS JOIN LATERAL (SELECT ${columns} FROM runs r WHERE r.trace_id = tt.trace_id AND r.is_root AND ${where} OFFSET 0) r`,
          ]
        : []),
      ...(others
        ? [sql`SELECT ${columns}, ${otherValue} AS sort_value FROM runs r WHERE ${othersWhere} AND ${before(otherValue)} AND ${where}`]
        : []),
    ];
    const rows = await db.query<RunRow & { sort_value: unknown }>(sql`
      SELECT * FROM (${join(branches, " UNION ALL ")}) s ORDER BY sort_value ${order}, id LIMIT ${want}`);
    if (rows.length === want) return rows.map(({ sort_value: _value, ...row }) => row);
    last = { read, matched: rows.length };
    // Fewer than asked with no bound: the page reaches the runs without the measure.
    if (bound === null) return null;
  }
  return null;
}
