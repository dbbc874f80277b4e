import { z } from "zod";
import type { Sql } from "../db/client";
import { uuid } from "../core/uuid";
import { requireProjects } from "../sessions/service";
import { checkQuery } from "./check";
import { executeReadOnly, maxCost } from "./execute";
import { ensureStatistics } from "./statistics";
import { codec, dataType } from "./values";
import { recordAudit } from "../audit/record";

export const sqlQueryBody = z.object({
  project_ids: z.array(uuid).min(1, "name at least one project").max(100),
  query: z.string().trim().min(1, "write one SELECT statement").max(100_000),
});

/** A read-only statement over the views of some projects of the workspace. */
export interface SqlQuery {
  projectIds: string[];
  query: string;
}

/** The client's `SqlQueryResponse`. */
export const wireSqlQueryResult = z.object({
  columns: z.array(z.object({ name: z.string(), data_type: dataType })),
  rows: z.array(z.array(z.unknown())),
  row_count: z.number(),
  is_truncated: z.boolean(),
  truncation_reason: z.enum(["row_limit", "size_limit"]).nullable(),
  execution_time_ms: z.number(),
  warnings: z.array(z.string()),
});
export type SqlQueryResult = z.infer<typeof wireSqlQueryResult>;

/**
 * `POST /v2/sql/query` (`client.sql.query`): one read-only SELECT over the views `runs` and
 * `feedback` of the given projects of the caller's workspace, answered as columns and rows.
 */
export async function runSqlQuery(db: Sql, workspaceId: string, q: SqlQuery): Promise<SqlQueryResult> {
  const projectIds = [...new Set(q.projectIds.map((id) => id.toLowerCase()))];
  await requireProjects(db, workspaceId, projectIds);
  const statement = await checkQuery(q.query);
  await ensureStatistics(db);
  const started = performance.now();
  const raw = await executeReadOnly(db, { workspaceId, projectIds }, statement);
  const execution_time_ms = Math.round((performance.now() - started) * 10) / 10;
  const codecs = raw.fields.map((field) => codec(field.dataTypeID));
  const rows = raw.rows.map((row) => row.map((value, i) => (value === null ? null : codecs[i]!.decode(value as string))));
  const reason = raw.truncation;
  await recordAudit(db.prisma, {
    workspaceId,
    action: "sql.query",
    target: { type: "projects", id: projectIds.join(",") },
    after: { query: q.query, row_count: rows.length, truncated: reason !== null },
  });
  return {
    columns: raw.fields.map((field, i) => ({ name: field.name, data_type: codecs[i]!.type })),
    rows,
    row_count: rows.length,
    is_truncated: reason !== null,
    truncation_reason: reason,
    execution_time_ms,
    warnings:
      raw.cost > maxCost() / 10
        ? [
            `This query is expensive (estimated cost ${Math.round(raw.cost).toLocaleString("en")}); a narrower start_time range makes it faster.`,
          ]
        : [],
  };
}
