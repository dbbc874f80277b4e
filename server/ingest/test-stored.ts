import type { Sql } from "../db/client";
import { sql } from "../db/sql";

// The tests read a row's columns by name, whatever their types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StoredRow = Record<string, any>;

/** A run's stored row, every column as the database has it (for the ingest tests). */
export async function storedRow(db: Sql, id: string): Promise<StoredRow> {
  const [row] = await db.query<StoredRow>(sql`SELECT * FROM runs WHERE id = ${id}`);
  return row;
}
