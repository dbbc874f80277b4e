import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { exampleWire, type VersionRow } from "./examples";
import type { WireExample } from "./schema";

/** These examples' ids and splits (current versions) in the dataset's order (creation, then position), without their content. */
export async function exampleOutlines(
  db: Sql,
  workspaceId: string,
  ids: string[],
): Promise<{ id: string; dataset_id: string; splits: string[] }[]> {
  return db.query(sql`
    SELECT example_id AS id, dataset_id,
      CASE jsonb_typeof(metadata -> 'dataset_split') WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(metadata -> 'dataset_split'))
        WHEN 'string' THEN ARRAY[metadata ->> 'dataset_split'] ELSE '{}'::text[] END AS splits
    FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL
    ORDER BY created_at, position, example_id`);
}

/** The current versions of these examples in the dataset's order (creation, then position). */
export async function examplesInOrder(db: Sql, workspaceId: string, ids: string[]): Promise<WireExample[]> {
  const rows = await db.query<VersionRow>(sql`
    SELECT * FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL
    ORDER BY created_at, position, example_id`);
  return Promise.all(rows.map(exampleWire));
}
