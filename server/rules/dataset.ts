import type { Sql } from "../db/client";
import { createExamples } from "../datasets/examples";
import type { RuleRun } from "./actions";

/** The "add to dataset" action: the run becomes an example (inputs, outputs, source_run_id); returns its id. */
export async function addRunToDataset(db: Sql, workspaceId: string, datasetId: string, run: RuleRun): Promise<string> {
  const result = await createExamples(db, workspaceId, datasetId, [
    {
      inputs: (run.inputs as Record<string, unknown> | null) ?? {},
      outputs: (run.outputs as Record<string, unknown> | null) ?? null,
      source_run_id: run.id,
    },
  ]);
  return result.example_ids[0];
}
