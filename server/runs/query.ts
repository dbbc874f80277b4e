import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { HEAVY_COLUMNS, runColumns, type RunRow } from "./columns";
import { runConditions } from "./conditions";
import { decodeCursor, encodeCursor } from "./cursor";
import { serializeRuns } from "./read";
import { selectedRun, type SelectedRun } from "./serialize";
import type { RunQuery } from "./selection";
import { fromStorage } from "../db/storable";

/** LangSmith's own page size cap for /runs/query; the SDK keeps following `cursors.next`. */
export const MAX_PAGE = 100;

/** A page of POST /runs/query; the SDK follows `cursors.next`. */
export const runPage = z.object({ runs: z.array(selectedRun), cursors: z.object({ next: z.string().nullable() }) });
export type RunPage = z.infer<typeof runPage>;

/**
 * One page of the workspace's runs matching a selection (POST /runs/query, the runs table), newest
 * first by default. Pages are keyset ranges on (start_time, id), matching the project index's order, so
 * a cursor stays valid while new runs arrive.
 */
export async function queryRuns(db: Sql, workspaceId: string, query: RunQuery): Promise<RunPage> {
  const order = query.order ?? "desc";
  const limit = Math.min(query.limit ?? MAX_PAGE, MAX_PAGE);
  const conditions = [runConditions(workspaceId, query, "r")];
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    if (cursor.order !== order) throw badRequest("Invalid cursor: it was made for the other order.");
    conditions.push(
      order === "desc"
        ? sql`r.start_time <= ${cursor.startTime}::timestamptz AND (r.start_time < ${cursor.startTime}::timestamptz OR r.id > ${cursor.id}::uuid)`
        : sql`r.start_time >= ${cursor.startTime}::timestamptz AND (r.start_time > ${cursor.startTime}::timestamptz OR r.id < ${cursor.id}::uuid)`,
    );
  }
  const select = query.fields && query.fields.length > 0 ? new Set(query.fields) : null;
  const heavy = new Set<string>(select ? HEAVY_COLUMNS.filter((c) => select.has(c)) : HEAVY_COLUMNS);
  const orderBy = order === "desc" ? sql`r.start_time DESC, r.id ASC` : sql`r.start_time ASC, r.id DESC`;
  const rows = await db.query<RunRow>(sql`
    SELECT ${runColumns("r", heavy)} FROM runs r
    WHERE ${conditions.reduce((acc, c) => sql`${acc} AND ${c}`)}
    ORDER BY ${orderBy} LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit).map(fromStorage);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? encodeCursor({ startTime: isoFromDb(last.start_time)!, id: last.id, order }) : null;
  return { runs: await serializeRuns(db, workspaceId, page, select), cursors: { next } };
}

/** The query's pages followed until at least `atLeast` runs are in hand (or there are no more). */
export async function queryRunsUntil(db: Sql, workspaceId: string, query: RunQuery, atLeast: number): Promise<SelectedRun[]> {
  const runs: SelectedRun[] = [];
  let cursor: string | null | undefined = query.cursor;
  do {
    const page = await queryRuns(db, workspaceId, { ...query, cursor: cursor ?? undefined });
    runs.push(...page.runs);
    cursor = page.cursors.next;
  } while (cursor && runs.length < atLeast);
  return runs;
}
