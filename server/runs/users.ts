import { z } from "zod";
import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { escapeText, fromStorage } from "../db/storable";
import { isoFromDb } from "../core/time";
import { runUserId } from "./filter/index";
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
 * last seen, and the mean score per feedback key on their traces. Reads the root runs that name a
 * user through the partial expression index `runs_user_idx` (one range per project, one per user for
 * the feedback), so projects with many runs and no users cost nothing and the rest cost their users'
 * traces, within the time range when one is given. Set-based SQL rather than Prisma Client: the
 * users are a GROUP BY over an expression (`run_user_id(extra)`, the one its index holds) with the
 * traces' totals joined, sorted and paged in the database; Prisma's groupBy groups by columns only,
 * so it would read every root run of the project to group them here.
 */
export async function listAppUsers(db: Sql, workspaceId: string, raw_: UserListInput): Promise<{ users: AppUser[]; total: number }> {
  const input = userListInput.parse(raw_);
  const uid = runUserId("r");
  const where: SqlFragment[] = [
    sql`r.workspace_id = ${workspaceId}`,
    sql`r.project_id = ${input.projectId}::uuid`,
    sql`r.is_root`,
    sql`${uid} IS NOT NULL`,
  ];
  if (input.startTime) where.push(sql`r.start_time >= ${instantOf(input.startTime, "startTime")}::timestamptz`);
  if (input.endTime) where.push(sql`r.start_time <= ${instantOf(input.endTime, "endTime")}::timestamptz`);
  const all = where.reduce((acc, p) => sql`${acc} AND ${p}`);
  const matching = input.search ? sql`${all} AND ${uid} ILIKE ${likeContains(escapeText(input.search))}` : all;
  const rows = await db.query<Omit<AppUser, "feedback"> & { total: number }>(sql`
    SELECT u.*, count(*) OVER ()::int AS total FROM (
      SELECT ${uid} AS user_id, count(*)::int AS traces, count(DISTINCT r.thread_id)::int AS threads,
        count(*) FILTER (WHERE r.error IS NOT NULL OR coalesce(tt.error_runs, 0) > 0)::int AS errors,
        coalesce(sum(coalesce(tt.total_tokens, r.total_tokens)), 0)::float8 AS total_tokens,
        sum(coalesce(tt.total_cost, r.total_cost))::float8 AS total_cost,
        min(r.start_time) AS first_seen, max(r.start_time) AS last_seen
      FROM runs r LEFT JOIN trace_totals tt ON tt.workspace_id = r.workspace_id AND tt.trace_id = r.trace_id
      WHERE ${matching}
      GROUP BY 1) u
    ORDER BY ${ORDER[input.sort.by]} ${raw(input.sort.dir === "asc" ? "ASC" : "DESC")} NULLS LAST, u.user_id
    LIMIT ${input.limit} OFFSET ${input.offset}`);
  if (rows.length === 0) return { users: [], total: 0 };
  const ids = rows.map((r) => r.user_id);
  const feedback = await db.query<{ user_id: string; key: string; n: number; avg: number | null }>(sql`
    SELECT ${uid} AS user_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg
    FROM runs r JOIN feedback f ON f.workspace_id = r.workspace_id AND f.trace_id = r.trace_id
    WHERE ${all} AND ${uid} = ANY(${ids}::text[])
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
