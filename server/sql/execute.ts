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
  /** Which bound cut the rows: SQL_ROW_LIMIT (the query matched more) or SQL_MAX_BYTES. */
  truncation: "row_limit" | "size_limit" | null;
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

/** Types whose text is a few dozen bytes at most: bool, integers, floats, uuid, dates, times, timestamps, intervals. */
const FIXED_WIDTH = new Set([16, 20, 21, 23, 26, 700, 701, 2950, 1082, 1083, 1114, 1184, 1186, 1266]);

/**
 * Runs a checked SELECT as the database enforces it: in a transaction that is rolled back, after
 * writing the scope that the views' row-level security reads (this connection's workspace and
 * projects), read-only, as role tracelight_sql_reader (which can read the views and nothing else),
 * within SQL_TIMEOUT_MS (`Sql.bounded`), with a memory bound and a cost bound; then its rows,
 * bounded in count and bytes.
 */
export async function executeReadOnly(db: Sql, sandbox: Sandbox, statement: string): Promise<RawResult> {
  const { SQL_TIMEOUT_MS, SQL_ROW_LIMIT } = env();
  const limit = maxCost();
  // The statement on a line of its own, so a trailing `-- comment` ends with it.
  const prefix = "SELECT * FROM (\n";
  const wrapped = `${prefix}${statement}\n) AS query LIMIT ${SQL_ROW_LIMIT + 1}`;
  const deadline = performance.now() + SQL_TIMEOUT_MS;
  return db.bounded(SQL_TIMEOUT_MS, async (t) => {
    await t.query(q`INSERT INTO sql_scopes (backend_pid, workspace_id, project_ids)
      VALUES (pg_backend_pid(), ${sandbox.workspaceId}::uuid, ${sandbox.projectIds}::uuid[])`);
    await t.query(q`SELECT set_config('work_mem', '32MB', true), set_config('search_path', 'tracelight_sql', true),
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
    const { fields } = await userStatement(() => t.arrays(wrapped.replace(/LIMIT \d+$/, "LIMIT 0")), prefix.length);
    return { fields, cost, ...(await fetchBounded(t, statement, fields, deadline)) };
  });
}

/**
 * Declares the cursor and fetches its rows up to SQL_ROW_LIMIT and SQL_MAX_BYTES, such that no
 * fetch reads more than about SQL_MAX_BYTES: a value of a column that can be long is cut to
 * SQL_MAX_BYTES + 1 characters in the database, and a row comes whole only while its values fit
 * the share of the bytes left that the fetch allows each row (else they come as nulls, and the
 * answer ends there). The share is sized from the widest row so far, so rows much wider than the
 * ones before them may end the answer early, never the server's memory.
 */
async function fetchBounded(
  t: Sql,
  statement: string,
  fields: ArrayResult["fields"],
  deadline: number,
): Promise<Omit<RawResult, "fields" | "cost">> {
  const { SQL_ROW_LIMIT, SQL_MAX_BYTES } = env();
  // Columns renamed by position (two may share a name); the long ones cut in the database.
  const names = fields.map((_, i) => `c${i}`);
  const long = fields.map((field) => !FIXED_WIDTH.has(field.dataTypeID));
  const inner = names.map((name, i) => (long[i] ? `left(${name}::text, ${SQL_MAX_BYTES + 1})` : name) + ` AS v${i}`);
  const size = ["0", ...names.flatMap((_, i) => (long[i] ? [`coalesce(octet_length(v${i}), 0)`] : []))].join(" + ");
  const outer = names.map((_, i) => (long[i] ? `CASE WHEN ${size} <= current_setting('${ROW_CAP}')::bigint THEN v${i} END` : `v${i}`));
  const declare = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR SELECT ${[...outer, size].join(", ")} FROM (SELECT ${inner.join(", ")} FROM (\n`;
  const columns = names.length ? `(${names.join(", ")})` : "";
  await userStatement(() => t.arrays(`${declare}${statement}\n) AS query${columns} LIMIT ${SQL_ROW_LIMIT + 1}) AS capped`), declare.length);
  const rows: unknown[][] = [];
  let bytes = 0;
  let widest = 0;
  for (;;) {
    const left = SQL_MAX_BYTES - bytes;
    // The first row alone; then as many as twice the widest so far fit the bytes left.
    const page = !long.some(Boolean) ? PAGE : rows.length === 0 ? 1 : Math.max(1, Math.min(PAGE, Math.floor(left / (2 * widest + 1))));
    const cap = Math.floor(left / page);
    // statement_timeout bounds each statement: each fetch gets what is left of SQL_TIMEOUT_MS.
    const ms = Math.round(deadline - performance.now());
    if (ms <= 0) throw timedOut();
    await t.query(q`SELECT set_config(${ROW_CAP}, ${String(cap)}, true), set_config('statement_timeout', ${String(ms)}, true)`);
    const fetched = await userStatement(() => t.arrays(`FETCH ${page} FROM ${CURSOR}`), 0);
    for (const sized of fetched.rows) {
      if (rows.length === SQL_ROW_LIMIT) return { rows, truncation: "row_limit" };
      const rowSize = Number(sized.pop());
      if (rowSize > cap) return { rows, truncation: "size_limit" };
      bytes += sized.reduce<number>((sum, value) => sum + (typeof value === "string" ? value.length + 3 : 5), 2);
      if (bytes > SQL_MAX_BYTES) return { rows, truncation: "size_limit" };
      widest = Math.max(widest, rowSize);
      rows.push(sized);
    }
    if (fetched.rows.length < page) return { rows, truncation: null };
  }
}

/** The bytes each row of the current fetch may have (a setting, so the cursor reads it at each fetch). */
const ROW_CAP = "tracelight.sql_row_cap";

const timedOut = () =>
  badRequest(
    `The query ran longer than ${env().SQL_TIMEOUT_MS / 1000} s and was cancelled: narrow the start_time range, the projects, or the joins.`,
  );

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
    if (state === "57014") throw timedOut();
    const position = Number((error as { position?: string }).position) - offset;
    throw badRequest(`${(error as Error).message}${position > 0 ? ` (at character ${position})` : ""}.`);
  }
}
