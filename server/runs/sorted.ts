import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { fromStorage } from "../db/storable";
import { runColumns, type RunRow } from "./columns";
import { runConditions } from "./conditions";
import { shownTotal } from "./filter/index";
import { serializeRuns } from "./read";
import type { SelectedRun } from "./serialize";
import type { RunSelection } from "./selection";

export const SORT_KEYS = ["latency", "first_token", "total_tokens", "total_cost"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What each sort orders by: the numbers the table shows (a root run's tokens and cost are its trace's). */
const SORT_BY: Record<SortKey, SqlFragment> = {
  latency: sql`r.latency_ms`,
  first_token: sql`(r.first_token_time - r.start_time)`,
  total_tokens: shownTotal("r", "total_tokens"),
  total_cost: shownTotal("r", "total_cost"),
};

/**
 * The runs table sorted by a measure rather than by time: one page at `offset`, runs without the
 * measure last, ties broken by id so pages never overlap.
 */
export async function sortedRuns(
  db: Sql,
  workspaceId: string,
  selection: RunSelection,
  sort: { by: SortKey; dir: "asc" | "desc" },
  offset: number,
  limit: number,
  select: string[],
): Promise<{ runs: SelectedRun[]; next: number | null }> {
  const rows = await db.query<RunRow>(sql`
    SELECT ${runColumns("r", new Set())} FROM runs r
    WHERE ${runConditions(workspaceId, selection, "r")}
    ORDER BY ${SORT_BY[sort.by]} ${raw(sort.dir === "asc" ? "ASC" : "DESC")} NULLS LAST, r.id
    LIMIT ${limit + 1} OFFSET ${offset}`);
  const page = rows.slice(0, limit).map(fromStorage);
  return { runs: await serializeRuns(db, workspaceId, page, new Set(select)), next: rows.length > limit ? offset + limit : null };
}
