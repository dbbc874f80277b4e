import { badRequest, sqlState } from "../core/errors";
import type { ArrayResult, Sql } from "../db/client";
import { sql as q } from "../db/sql";
import { env } from "../env";

/** What a checked query may read and how much of it may come back. */
export interface Sandbox {
  workspaceId: string;
  projectIds: string[];
}

export interface RawResult {
  fields: ArrayResult["fields"];
  rows: unknown[][];
  /** The query matched more rows than the row limit. */
  moreRows: boolean;
  /** The planner's estimate of the query's cost (the bound `maxCost()` applies to). */
  cost: number;
}

const CURSOR = "tracelight_sql_result";

/** The planner cost a query may not exceed (SQL_MAX_COST, else by database: see server/env.ts). */
export function maxCost(): number {
  const { SQL_MAX_COST, DATABASE_URL } = env();
  return SQL_MAX_COST ?? (DATABASE_URL ? 1e8 : 2e6);
}
const PAGE = 100;

/**
 * Runs a checked SELECT as the database enforces it: in a transaction that is rolled back, after
 * writing the scope that the views' row-level security reads (this connection's workspace and
 * projects), read-only, as role tracelight_sql_reader (which can read the views and nothing else),
 * with a statement timeout, a memory bound and a cost bound; rows are fetched a page at a time
 * until the row limit, or until `wanted` says enough.
 */
export async function executeReadOnly(
  db: Sql,
  sandbox: Sandbox,
  statement: string,
  wanted: (row: unknown[]) => boolean,
): Promise<RawResult> {
  const { SQL_TIMEOUT_MS, SQL_ROW_LIMIT } = env();
  const limit = maxCost();
  // The statement on a line of its own, so a trailing `-- comment` ends with it.
  const prefix = "SELECT * FROM (\n";
  const wrapped = `${prefix}${statement}\n) AS query LIMIT ${SQL_ROW_LIMIT + 1}`;
  return db.tx(
    async (t) => {
      await t.query(q`INSERT INTO sql_scopes (backend_pid, workspace_id, project_ids)
        VALUES (pg_backend_pid(), ${sandbox.workspaceId}::uuid, ${sandbox.projectIds}::uuid[])`);
      await t.query(q`SELECT set_config('statement_timeout', ${String(SQL_TIMEOUT_MS)}, true),
        set_config('work_mem', '32MB', true), set_config('search_path', 'tracelight_sql', true),
        set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO', true),
        CASE WHEN current_setting('is_superuser') = 'on' THEN set_config('temp_file_limit', '256MB', true) END`);
      await t.text("SET LOCAL transaction_read_only = on");
      await t.text("SET LOCAL ROLE tracelight_sql_reader");
      const explain = "EXPLAIN (FORMAT JSON) ";
      const plan = await userStatement(() => t.arrays(`${explain}${wrapped}`), explain.length + prefix.length);
      const cost = planCost(plan.rows[0]?.[0]);
      if (cost > limit)
        throw badRequest(
          `The query is too expensive to run (the planner estimates a cost of ${Math.round(cost).toLocaleString("en")}, the limit is ${limit.toLocaleString("en")}): narrow the start_time range, the projects, or the joins.`,
        );
      const declare = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR `;
      await userStatement(() => t.arrays(`${declare}${wrapped}`), declare.length + prefix.length);
      const rows: unknown[][] = [];
      let fields: ArrayResult["fields"] = [];
      for (;;) {
        const page = await userStatement(() => t.arrays(`FETCH ${PAGE} FROM ${CURSOR}`), 0);
        fields = page.fields;
        for (const row of page.rows) {
          if (rows.length === SQL_ROW_LIMIT) return { fields, rows, moreRows: true, cost };
          if (!wanted(row)) return { fields, rows, moreRows: false, cost };
          rows.push(row);
        }
        if (page.rows.length < PAGE) return { fields, rows, moreRows: false, cost };
      }
    },
    { rollback: true },
  );
}

function planCost(plan: unknown): number {
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan?: { "Total Cost"?: number } }[];
  return parsed[0]?.Plan?.["Total Cost"] ?? 0;
}

/** SQLSTATE classes of a query's own faults: data, syntax and access, cardinality, unsupported, read-only, limits. */
const QUERY_FAULT = /^(22|42|21|0A|25|54|2F|53400|57014)/;

/** Runs a statement carrying the caller's query; its faults become 400s positioned in the caller's text. */
async function userStatement<T>(run: () => Promise<T>, offset: number): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const state = sqlState(error);
    if (!state || !QUERY_FAULT.test(state)) throw error;
    if (state === "57014")
      throw badRequest(
        `The query ran longer than ${env().SQL_TIMEOUT_MS / 1000} s and was cancelled: narrow the start_time range, the projects, or the joins.`,
      );
    const position = Number((error as { position?: string }).position) - offset;
    throw badRequest(`${(error as Error).message}${position > 0 ? ` (at character ${position})` : ""}.`);
  }
}
