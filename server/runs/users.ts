import { z } from "zod";
import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { escapeText, fromStorage } from "../db/storable";
import { isoFromDb } from "../core/time";
import { likeContains } from "./filter/values";
import { instantOf } from "./range";

export const USER_SORTS = ["last_seen", "first_seen", "traces", "threads", "total_tokens", "total_cost", "errors", "user_id"] as const;

export const userListInput = z.object({
  projectId: z.string(),
  search: z.string().max(256).optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  sort: z.object({ by: z.enum(USER_SORTS), dir: z.enum(["asc", "desc"]) }).default({ by: "last_seen", dir: "desc" }),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100).default(50),
});
export type UserListInput = z.input<typeof userListInput>;

/** One end user of a project: their traces' counts and sums, and the feedback on them. */
export interface AppUser {
  user_id: string;
  traces: number;
  threads: number;
  errors: number;
  total_tokens: number;
  total_cost: number | null;
  first_seen: string | null;
  last_seen: string | null;
  feedback: Record<string, { n: number; avg: number | null }>;
}

const ORDER: Record<(typeof USER_SORTS)[number], SqlFragment> = {
  last_seen: sql`u.last_seen`,
  first_seen: sql`u.first_seen`,
  traces: sql`u.traces`,
  threads: sql`u.threads`,
  total_tokens: sql`u.total_tokens`,
  total_cost: sql`u.total_cost`,
  errors: sql`u.errors`,
  user_id: sql`u.user_id`,
};

/**
 * The Users page: a project's end users (the id a root run's metadata names, `run_user_id()`), each
 * with their traces, threads, traces with an error, tokens and cost (the traces' totals), first and
 * last seen, and the mean score per feedback key on their traces. The aggregate reads `trace_totals`,
 * whose row for a trace carries its root's user, thread, start and failure (written by ingest with
 * the sums; migration 20261128070000_trace_users), through the partial index `trace_totals_users_idx`:
 * one narrow row per trace of a user, within the time range when one is given, so projects without
 * users cost nothing; the page's users' feedback joins their traces' rows to feedback by trace.
 * Set-based SQL rather than Prisma Client: a GROUP BY with a distinct count, sorted and paged in the
 * database over a window count; Prisma's groupBy would bring every trace here.
 */
export async function listAppUsers(db: Sql, workspaceId: string, raw_: UserListInput): Promise<{ users: AppUser[]; total: number }> {
  const input = userListInput.parse(raw_);
  const startTime = input.startTime ? instantOf(input.startTime, "startTime") : null;
  const endTime = input.endTime ? instantOf(input.endTime, "endTime") : null;
  const traces: SqlFragment[] = [
    sql`t.workspace_id = ${workspaceId}`,
    sql`t.project_id = ${input.projectId}::uuid`,
    sql`t.root_user_id IS NOT NULL`,
  ];
  if (startTime) traces.push(sql`t.root_start_time >= ${startTime}::timestamptz`);
  if (endTime) traces.push(sql`t.root_start_time <= ${endTime}::timestamptz`);
  if (input.search) traces.push(sql`t.root_user_id ILIKE ${likeContains(escapeText(input.search))}`);
  const where = traces.reduce((acc, p) => sql`${acc} AND ${p}`);
  const rows = await db.query<Omit<AppUser, "feedback"> & { total: number }>(sql`
    SELECT u.*, count(*) OVER ()::int AS total FROM (
      SELECT t.root_user_id AS user_id, count(*)::int AS traces, count(DISTINCT t.root_thread_id)::int AS threads,
        count(*) FILTER (WHERE t.root_error OR t.error_runs > 0)::int AS errors,
        coalesce(sum(coalesce(t.total_tokens, t.root_total_tokens)), 0)::float8 AS total_tokens,
        sum(coalesce(t.total_cost, t.root_total_cost))::float8 AS total_cost,
        min(t.root_start_time) AS first_seen, max(t.root_start_time) AS last_seen
      FROM trace_totals t
      WHERE ${where}
      GROUP BY 1) u
    ORDER BY ${ORDER[input.sort.by]} ${raw(input.sort.dir === "asc" ? "ASC" : "DESC")} NULLS LAST, u.user_id
    LIMIT ${input.limit} OFFSET ${input.offset}`);
  if (rows.length === 0) return { users: [], total: 0 };
  const ids = rows.map((r) => r.user_id);
  const feedback = await db.query<{ user_id: string; key: string; n: number; avg: number | null }>(sql`
    SELECT t.root_user_id AS user_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg
    FROM trace_totals t JOIN feedback f ON f.workspace_id = t.workspace_id AND f.trace_id = t.trace_id
    WHERE ${where} AND t.root_user_id = ANY(${ids}::text[])
    GROUP BY 1, 2`);
  const byUser = new Map<string, AppUser["feedback"]>();
  for (const f of feedback) {
    const keys = byUser.get(f.user_id) ?? {};
    keys[fromStorage(f.key)] = { n: f.n, avg: f.avg };
    byUser.set(f.user_id, keys);
  }
  return {
    total: rows[0].total,
    users: rows.map(({ total: _total, ...u }) => ({
      ...u,
      user_id: fromStorage(u.user_id),
      first_seen: isoFromDb(u.first_seen),
      last_seen: isoFromDb(u.last_seen),
      feedback: byUser.get(u.user_id) ?? {},
    })),
  };
}
