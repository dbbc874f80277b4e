import type { Sql } from "../db/client";
import { env } from "../env";
import { onEvery } from "../jobs/queue";

const TABLES = ["runs", "feedback"];

/**
 * The cost bound on read-only SQL (`maxCost()`) is only as good as the planner's statistics of the
 * tables behind the views. PostgreSQL's autovacuum keeps them; the embedded database has no
 * autovacuum, so there they are gathered every ten minutes, and on either database before a query
 * when a table was never analyzed.
 */
export async function ensureStatistics(db: Sql): Promise<void> {
  const { rows } = await db.text(
    `SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname = ANY($1) AND reltuples < 0`,
    [TABLES],
  );
  for (const { relname } of rows as { relname: string }[]) await db.text(`ANALYZE "${relname}"`);
}

async function analyzeEmbedded(db: Sql): Promise<void> {
  if (!env().DATABASE_URL) await db.text(`ANALYZE ${TABLES.map((t) => `"${t}"`).join(", ")}`);
}

onEvery("sql-statistics", () => 600, analyzeEmbedded);
