import type { Sql } from "../db/client";
import { sql } from "../db/sql";

export interface SqlView {
  name: string;
  columns: { name: string; type: string }[];
}

/** The views a query may read and their columns, as the database has them (for the SQL page's reference). */
export async function listViews(db: Sql): Promise<SqlView[]> {
  const rows = await db.query<{ view: string; name: string; type: string }>(sql`
    SELECT table_name AS view, column_name AS name,
      CASE WHEN left(udt_name, 1) = '_' THEN substr(udt_name, 2) || '[]' ELSE udt_name END AS type
    FROM information_schema.columns
    WHERE table_schema = 'tracelight_sql' ORDER BY table_name DESC, ordinal_position`);
  const views = new Map<string, SqlView>();
  for (const row of rows) {
    const view = views.get(row.view) ?? { name: row.view, columns: [] };
    view.columns.push({ name: row.name, type: row.type });
    views.set(row.view, view);
  }
  return [...views.values()];
}
