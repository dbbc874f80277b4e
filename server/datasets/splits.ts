import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { updateExamples } from "./example-updates";
import type { MetadataOperations, WriteResult } from "./schema";
import { findDataset } from "./service";
import { resolveAsOf, visibleAt } from "./versions";

/** GET /datasets/{id}/splits: the split names its examples use (at as_of), sorted. */
export async function listSplits(db: Sql, workspaceId: string, datasetId: string, asOfValue?: string): Promise<string[]> {
  await findDataset(db, workspaceId, datasetId);
  const asOf = await resolveAsOf(db, workspaceId, datasetId, asOfValue);
  const rows = await db.query<{ split: string }>(sql`
    SELECT DISTINCT s.split FROM example_versions e,
      jsonb_array_elements_text(CASE WHEN jsonb_typeof(e.metadata -> 'dataset_split') = 'array' THEN e.metadata -> 'dataset_split' ELSE '[]'::jsonb END) AS s(split)
    WHERE e.workspace_id = ${workspaceId} AND e.dataset_id = ${datasetId} AND ${visibleAt(asOf)}
    ORDER BY s.split`);
  return rows.map((r) => r.split);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** array_add / array_remove on metadata keys (dataset_split for splits), as one new version. */
export async function applyMetadataOperations(
  db: Sql,
  workspaceId: string,
  datasetId: string,
  input: MetadataOperations,
): Promise<WriteResult> {
  const edit = (metadata: Record<string, unknown>) => {
    for (const op of input.operations) {
      const current = metadata[op.key];
      let values: unknown[] = Array.isArray(current) ? [...current] : current === undefined || current === null ? [] : [current];
      if (op.operation === "array_add") {
        for (const v of op.values) if (!values.some((x) => same(x, v))) values.push(v);
      } else {
        values = values.filter((x) => !op.values.some((v) => same(x, v)));
      }
      metadata[op.key] = values;
    }
    return metadata;
  };
  return updateExamples(
    db,
    workspaceId,
    datasetId,
    input.example_ids.map((id) => ({ id, editMetadata: edit })),
  );
}

/** PUT /datasets/{id}/splits: adds the examples to a split, or removes them from it. */
export async function updateSplits(
  db: Sql,
  workspaceId: string,
  datasetId: string,
  input: { split_name: string; examples: string[]; remove: boolean },
): Promise<string[]> {
  if (input.examples.length === 0) {
    await findDataset(db, workspaceId, datasetId);
    return [];
  }
  const result = await applyMetadataOperations(db, workspaceId, datasetId, {
    example_ids: input.examples,
    operations: [{ key: "dataset_split", operation: input.remove ? "array_remove" : "array_add", values: [input.split_name] }],
  });
  return result.example_ids;
}
