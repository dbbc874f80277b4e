import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest, notFound } from "../core/errors";
import { uuid } from "../core/uuid";
import { examplesInOrder } from "../datasets/examples";
import { findDataset } from "../datasets/service";
import { experimentRuns } from "../runs/experiment-runs";
import { heavyColumnsFor, runSelects, v2Run } from "../runs/v2";
import { listSessions } from "../sessions/service";
import { sessionListQuery } from "../sessions/schema";

/** POST /api/v2/datasets/{id}/experiment-runs, as the 0.12 client's `datasets.experimentRuns.query` sends it. */
export const experimentRunsQuery = z.looseObject({
  experiment_ids: z.array(uuid).min(1, "name at least one experiment").max(100),
  example_ids: z.array(uuid).max(1000).nullish(),
  selects: runSelects.nullish(),
  filters: z.record(z.string(), z.array(z.string().max(10_000)).max(20)).nullish(),
  sort: z
    .object({
      by: z.string().min(1).max(300),
      order: z
        .string()
        .regex(/^(asc|desc)$/i, "must be ASC or DESC")
        .nullish(),
    })
    .nullish(),
  comparative_experiment_id: uuid.nullish(),
  cursor: z.string().max(100).nullish(),
  page_size: z.number().int().min(1).max(100).default(20),
});
export type ExperimentRunsQuery = z.infer<typeof experimentRunsQuery>;

const encodeOffset = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
function decodeOffset(cursor: string): number {
  try {
    const offset = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))?.o;
    if (Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // the error below
  }
  throw badRequest("Invalid cursor: pass back the next_cursor of the previous page unchanged.");
}

/**
 * The dataset's examples that the experiments ran, each with its runs in those experiments, a page
 * at a time (`{items, next_cursor}`), in the dataset's order or by one feedback key of a single
 * experiment's runs.
 */
export async function queryExperimentRuns(db: Sql, workspaceId: string, datasetId: string, q: ExperimentRunsQuery) {
  await findDataset(db, workspaceId, datasetId);
  const ids = [...new Set(q.experiment_ids)];
  const sessions = await listSessions(db, workspaceId, sessionListQuery.parse({ id: ids, limit: ids.length }));
  const missing = ids.find((id) => !sessions.some((s) => s.id === id));
  if (missing) throw notFound(`Experiment ${missing} not found.`);
  if (q.sort && ids.length > 1) throw badRequest("sort by feedback works on one experiment: name a single experiment_id.");
  const selects = q.selects ?? [];
  const runs = await experimentRuns(db, workspaceId, {
    projectIds: ids,
    exampleIds: q.example_ids ?? undefined,
    filters: q.filters ?? undefined,
    heavy: heavyColumnsFor(selects),
  });
  const byExample = new Map<string, typeof runs>();
  for (const run of runs) byExample.set(run.reference_example_id!, [...(byExample.get(run.reference_example_id!) ?? []), run]);
  const examples = (await examplesInOrder(db, workspaceId, [...byExample.keys()])).filter((e) => e.dataset_id === datasetId);
  if (q.sort) {
    const key = q.sort.by.replace(/^feedback\./, "");
    const score = (exampleId: string) => {
      const values = byExample
        .get(exampleId)!
        .map((r) => r.feedback_stats?.[key]?.avg)
        .filter((v): v is number => typeof v === "number");
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    };
    const sign = q.sort.order?.toLowerCase() === "asc" ? 1 : -1;
    // Examples without the score come last either way.
    examples.sort((a, b) => {
      const [x, y] = [score(a.id), score(b.id)];
      return x === null ? (y === null ? 0 : 1) : y === null ? -1 : sign * (x - y);
    });
  }
  const offset = q.cursor ? decodeOffset(q.cursor) : 0;
  const page = examples.slice(offset, offset + q.page_size);
  return {
    items: page.map((example) => ({
      id: example.id,
      dataset_id: example.dataset_id,
      inputs: example.inputs,
      outputs: example.outputs,
      metadata: example.metadata,
      created_at: example.created_at,
      modified_at: example.modified_at,
      name: null,
      source_run_id: example.source_run_id,
      attachment_urls: example.attachment_urls,
      runs: byExample.get(example.id)!.map((run) => v2Run(run, selects)),
    })),
    next_cursor: offset + q.page_size < examples.length ? encodeOffset(offset + q.page_size) : null,
  };
}
