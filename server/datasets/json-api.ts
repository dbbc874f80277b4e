import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { updateExamples } from "./example-updates";
import { createExamples, readExample, readExamples } from "./examples";
import type { ExampleCreate, ExampleUpdate, WireExample, WriteResult } from "./schema";

/** The JSON example endpoints (Python's fallback when multipart examples are off, and direct API use). */

const toNew = (e: ExampleCreate) => ({
  id: e.id,
  inputs: e.inputs,
  outputs: e.outputs,
  metadata: e.metadata,
  split: e.split,
  source_run_id: e.source_run_id,
  use_source_run_io: e.use_source_run_io,
  created_at: e.created_at,
});

/** POST /examples: one example; answers the stored example. */
export async function createExampleJson(db: Sql, workspaceId: string, input: ExampleCreate): Promise<WireExample> {
  const result = await createExamples(db, workspaceId, input.dataset_id, [toNew(input)]);
  return readExample(db, workspaceId, result.example_ids[0]);
}

/** POST /examples/bulk: examples of one or more datasets; answers them in order. */
export async function createExamplesJson(db: Sql, workspaceId: string, items: ExampleCreate[]): Promise<WireExample[]> {
  const ids: string[] = [];
  await db.transaction(async (t) => {
    for (const datasetId of new Set(items.map((i) => i.dataset_id))) {
      const result = await createExamples(t, workspaceId, datasetId, items.filter((i) => i.dataset_id === datasetId).map(toNew));
      ids.push(...result.example_ids);
    }
  });
  return readExamples(db, workspaceId, ids);
}

/** PATCH /examples/{id}: fields left out or null keep their values; answers the example. */
export async function updateExampleJson(db: Sql, workspaceId: string, id: string, change: ExampleUpdate): Promise<WireExample> {
  await updateExamples(db, workspaceId, change.dataset_id ?? null, [{ id, ...change }]);
  return readExample(db, workspaceId, id);
}

/** PATCH /examples/bulk: `{count, example_ids, as_of}`. */
export async function updateExamplesJson(db: Sql, workspaceId: string, items: (ExampleUpdate & { id: string })[]): Promise<WriteResult> {
  const datasets = new Set(items.map((i) => i.dataset_id).filter(Boolean));
  if (datasets.size > 1) throw badRequest("PATCH /examples/bulk changes examples of one dataset at a time.");
  return updateExamples(db, workspaceId, [...datasets][0] ?? null, items);
}
