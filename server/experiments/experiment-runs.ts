import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import type { Identity } from "../auth/identity";
import { assertMay } from "../auth/policy";
import { addRunsToDataset } from "../datasets/runs";
import { addRuns, wireExample } from "../datasets/schema";
import { decodeOffset, encodeOffset } from "../core/offset-cursor";
import { uuid } from "../core/uuid";
import { examplesInOrder } from "../datasets/ordered";
import { findDataset } from "../datasets/service";
import { experimentRuns } from "../runs/experiment-runs";
import { heavyColumnsFor, runSelects, v2Run, wireRunV2, type RunSelectToken } from "../runs/v2";
import { loadExperiments } from "./list";
import { selectedRun } from "../runs/serialize";

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
type WireExperimentRunsQuery = z.infer<typeof experimentRunsQuery>;

/** A page of a dataset's examples with their runs in some experiments, in the domain's words. */
export interface ExperimentRunsQuery {
  experimentIds: string[];
  /** Only these examples. */
  exampleIds?: string[];
  /** The run fields each run carries (v2 tokens); none when absent. */
  selects?: RunSelectToken[];
  /** Per run field, the values it may hold. */
  filters?: Record<string, string[]>;
  /** Examples by a feedback key's average over their runs (one experiment only); the dataset's order when absent. */
  sortBy?: { key: string; asc: boolean };
  /** `next_cursor` of the previous page. */
  cursor?: string;
  /** 20 when absent. */
  pageSize?: number;
}

/** The 0.12 client's body as an experiment-runs query. */
export function experimentRunsFromWire(q: WireExperimentRunsQuery): ExperimentRunsQuery {
  return {
    experimentIds: q.experiment_ids,
    exampleIds: q.example_ids ?? undefined,
    selects: q.selects ?? undefined,
    filters: q.filters ?? undefined,
    sortBy: q.sort ? { key: q.sort.by.replace(/^feedback\./, ""), asc: q.sort.order?.toLowerCase() === "asc" } : undefined,
    cursor: q.cursor ?? undefined,
    pageSize: q.page_size,
  };
}

/**
 * The dataset's examples that the experiments ran, each with its runs in those experiments, in the
 * dataset's order or by one feedback key of a single experiment's runs.
 */
async function examplesWithRuns(
  db: Sql,
  workspaceId: string,
  datasetId: string,
  q: {
    experimentIds: string[];
    exampleIds?: string[];
    filters?: Record<string, string[]>;
    heavy: ReadonlySet<string>;
    sortBy?: { key: string; asc: boolean };
  },
) {
  await findDataset(db, workspaceId, datasetId);
  const ids = [...new Set(q.experimentIds)];
  await loadExperiments(db, workspaceId, ids);
  if (q.sortBy && ids.length > 1) throw badRequest("sort by feedback works on one experiment: name a single experiment_id.");
  const runs = await experimentRuns(db, workspaceId, { projectIds: ids, exampleIds: q.exampleIds, filters: q.filters, heavy: q.heavy });
  const byExample = new Map<string, typeof runs>();
  for (const run of runs) byExample.set(run.reference_example_id!, [...(byExample.get(run.reference_example_id!) ?? []), run]);
  const examples = (await examplesInOrder(db, workspaceId, [...byExample.keys()])).filter((e) => e.dataset_id === datasetId);
  if (q.sortBy) {
    const { key, asc } = q.sortBy;
    const score = (exampleId: string) => {
      const values = byExample
        .get(exampleId)!
        .map((r) => r.feedback_stats?.[key]?.avg)
        .filter((v): v is number => typeof v === "number");
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    };
    // Examples without the score come last either way.
    examples.sort((a, b) => {
      const [x, y] = [score(a.id), score(b.id)];
      return x === null ? (y === null ? 0 : 1) : y === null ? -1 : (asc ? 1 : -1) * (x - y);
    });
  }
  return examples.map((example) => ({ ...example, runs: byExample.get(example.id)! }));
}

/** An example with its runs in the experiments, in the v2 shape (`datasets.experimentRuns.query`). */
export const wireExampleWithRuns = wireExample.extend({ name: z.null(), runs: z.array(wireRunV2) });

/** POST /api/v2/datasets/{id}/experiment-runs: `{items, next_cursor}` pages, runs in the v2 shape. */
export async function queryExperimentRuns(db: Sql, workspaceId: string, datasetId: string, q: ExperimentRunsQuery) {
  const selects = q.selects ?? [];
  const pageSize = q.pageSize ?? 20;
  const examples = await examplesWithRuns(db, workspaceId, datasetId, {
    experimentIds: q.experimentIds,
    exampleIds: q.exampleIds,
    filters: q.filters,
    heavy: heavyColumnsFor(selects),
    sortBy: q.sortBy,
  });
  const offset = q.cursor ? decodeOffset(q.cursor) : 0;
  const page = examples.slice(offset, offset + pageSize);
  return {
    items: page.map(({ runs, ...example }) => ({ ...example, name: null, runs: runs.map((run) => v2Run(run, selects)) })),
    next_cursor: offset + pageSize < examples.length ? encodeOffset(offset + pageSize) : null,
  };
}

/** POST /datasets/{id}/runs with `session_ids` (LangSmith's classic read): examples with their runs, in pages. */
export const datasetRunsQuery = z.looseObject({
  session_ids: z.array(uuid).min(1, "name at least one experiment").max(100),
  filters: z.record(z.string(), z.array(z.string().max(10_000)).max(20)).nullish(),
  preview: z.boolean().nullish(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
});

/** The classic read in the domain's words: `preview` leaves the runs' inputs, outputs, extra and events out. */
interface DatasetRunsQuery {
  experimentIds: string[];
  filters?: Record<string, string[]>;
  preview?: boolean;
  offset: number;
  limit: number;
}

async function readDatasetRuns(db: Sql, workspaceId: string, datasetId: string, q: DatasetRunsQuery) {
  const examples = await examplesWithRuns(db, workspaceId, datasetId, {
    experimentIds: q.experimentIds,
    filters: q.filters,
    heavy: q.preview ? new Set() : new Set(["inputs", "outputs", "extra", "events"]),
  });
  return examples.slice(q.offset, q.offset + q.limit);
}

/** What POST /datasets/{id}/runs answers: examples with their runs (a read), or the examples made from runs (a copy). */
export const wireDatasetRuns = z.array(wireExample.extend({ runs: z.array(selectedRun).optional() }));

/**
 * POST /datasets/{id}/runs serves two uses: with `session_ids` (LangSmith's read) the dataset's
 * examples with their runs; with `run_ids`, runs copied into new examples, which needs write access.
 */
export async function postDatasetRuns(
  db: Sql,
  identity: Identity,
  datasetId: string,
  body: unknown,
): Promise<z.infer<typeof wireDatasetRuns>> {
  const copy = addRuns.safeParse(body);
  if (!copy.success) {
    const read = datasetRunsQuery.parse(body);
    return readDatasetRuns(db, identity.workspaceId, datasetId, {
      experimentIds: read.session_ids,
      filters: read.filters ?? undefined,
      preview: read.preview ?? undefined,
      offset: read.offset,
      limit: read.limit,
    });
  }
  assertMay(identity.role, "write");
  return addRunsToDataset(db, identity.workspaceId, datasetId, copy.data);
}
