import type { Sql } from "../db/client";
import { existingRuns } from "../runs/lookup";
import { sql } from "../db/sql";
import { notFound } from "../core/errors";
import { createExamples, readExamples } from "./examples";

/**
 * POST /datasets/{id}/runs: each run becomes an example with the run's inputs and outputs, its
 * attachments and source_run_id pointing back at it.
 */
export async function addRunsToDataset(
  db: Sql,
  workspaceId: string,
  datasetId: string,
  input: { run_ids: string[]; split?: string | string[] | null },
) {
  const ids = [...new Set(input.run_ids)];
  const found = await existingRuns(db, workspaceId, ids);
  const gone = ids.find((id) => !found.has(id));
  if (gone) throw notFound(`Run ${gone} not found in this workspace.`);
  const files = await db.query<{ run_id: string; name: string }>(sql`
    SELECT run_id, name FROM attachments WHERE workspace_id = ${workspaceId} AND run_id = ANY(${ids}::uuid[])`);
  const result = await createExamples(
    db,
    workspaceId,
    datasetId,
    ids.map((id) => ({
      source_run_id: id,
      use_source_run_io: true,
      use_source_run_attachments: files.filter((f) => f.run_id === id).map((f) => f.name),
      split: input.split,
    })),
  );
  return readExamples(db, workspaceId, result.example_ids);
}
