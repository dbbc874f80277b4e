import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest, notFound } from "../core/errors";
import { instant } from "../core/instant";
import { uuid } from "../core/uuid";
import { publicUrl } from "../http/public-url";
import { queryRuns } from "./query";
import { readRuns } from "./read";
import { heavyColumnsFor, runSelects, v2Run, type RunSelectToken } from "./v2";

const DAY_MS = 86_400_000;
const filterText = z.string().max(10_000).nullish();
const selects = runSelects.nullish().transform((v) => v ?? []);

/** POST /api/v2/runs/query, as the 0.12 client's `runs.query` sends it (its `RunQueryV2Params`). */
export const runQueryV2 = z
  .looseObject({
    project_ids: z.array(uuid).max(100).nullish(),
    reference_dataset_id: uuid.nullish(),
    min_start_time: instant.nullish(),
    max_start_time: instant.nullish(),
    filter: filterText,
    trace_filter: filterText,
    tree_filter: filterText,
    is_root: z.boolean().nullish(),
    has_error: z.boolean().nullish(),
    ids: z.array(uuid).max(1000).nullish(),
    run_type: z.string().max(40).nullish(),
    trace_id: uuid.nullish(),
    reference_examples: z.array(uuid).max(1000).nullish(),
    ai_search: z.string().nullish(),
    selects,
    cursor: z.string().max(1000).nullish(),
    page_size: z.number().int().min(1).max(100).default(100),
  })
  .refine((q) => !q.project_ids?.length !== !q.reference_dataset_id, {
    message: "set exactly one of project_ids and reference_dataset_id",
    path: ["project_ids"],
  })
  .refine((q) => !q.ai_search, { message: "ai_search (semantic search) is not available on this deployment", path: ["ai_search"] });
export type RunQueryV2 = z.infer<typeof runQueryV2>;

/** Light fields, always read: the classic names the v2 tokens are made from. */
const LIGHT = [
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "error",
  "latency",
  "first_token_time",
  "inputs_preview",
  "outputs_preview",
  "parent_run_ids",
  "session_id",
  "trace_id",
  "thread_id",
  "dotted_order",
  "parent_run_id",
  "reference_example_id",
  "total_tokens",
  "prompt_tokens",
  "completion_tokens",
  "total_cost",
  "prompt_cost",
  "completion_cost",
  "prompt_token_details",
  "completion_token_details",
  "prompt_cost_details",
  "completion_cost_details",
  "tags",
  "app_path",
];

/** The classic select that reads what the tokens show: heavy JSON and feedback statistics only when selected. */
export const classicSelect = (tokens: readonly RunSelectToken[]) => [
  ...LIGHT,
  ...heavyColumnsFor(tokens),
  ...(tokens.includes("FEEDBACK_STATS") ? ["feedback_stats"] : []),
];

/**
 * The projects the query covers: those named (404 naming the first that is not the workspace's, as
 * everywhere else), or the experiments of the reference dataset.
 */
async function projectsOf(db: Sql, workspaceId: string, q: RunQueryV2): Promise<string[]> {
  if (q.project_ids?.length) {
    const found = await db.prisma.project.findMany({ where: { workspaceId, id: { in: q.project_ids } }, select: { id: true } });
    const known = new Set(found.map((p) => p.id));
    const unknown = q.project_ids.find((id) => !known.has(id));
    if (unknown) throw notFound(`Project (session) ${unknown} not found.`);
    return q.project_ids;
  }
  const experiments = await db.prisma.project.findMany({
    where: { workspaceId, referenceDatasetId: q.reference_dataset_id! },
    select: { id: true },
  });
  return experiments.map((p) => p.id);
}

/**
 * One page of runs in the v2 shape: the projects' runs started in [min_start_time (a day ago by
 * default; for a dataset's experiments, any time), max_start_time (now)], newest first, matching
 * the filters; `id` and the selected fields of each, and the cursor of the next page.
 */
export async function queryRunsV2(db: Sql, workspaceId: string, q: RunQueryV2) {
  const projectIds = await projectsOf(db, workspaceId, q);
  if (projectIds.length === 0) return { items: [], next_cursor: null };
  const page = await queryRuns(db, workspaceId, {
    projectIds,
    startTime: (q.min_start_time ?? (q.reference_dataset_id ? undefined : new Date(Date.now() - DAY_MS)))?.toISOString(),
    endTime: (q.max_start_time ?? new Date()).toISOString(),
    filter: q.filter ?? undefined,
    traceFilter: q.trace_filter ?? undefined,
    treeFilter: q.tree_filter ?? undefined,
    isRoot: q.is_root ?? undefined,
    error: q.has_error ?? undefined,
    ids: q.ids?.length ? q.ids : undefined,
    runType: q.run_type ?? undefined,
    traceId: q.trace_id ?? undefined,
    referenceExampleIds: q.reference_examples ?? undefined,
    fields: classicSelect(q.selects),
    limit: q.page_size,
    cursor: q.cursor ?? undefined,
  });
  return { items: page.runs.map((r) => v2Run(r, q.selects)), next_cursor: page.cursors.next };
}

/** GET /api/v2/runs/{id}?project_id=…&selects=…: one run of that project. */
export const runRetrieveV2 = z.looseObject({
  project_id: uuid,
  selects: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(runSelects),
  start_time: z.string().optional(),
});

export async function readRunV2(db: Sql, workspaceId: string, runId: string, q: z.infer<typeof runRetrieveV2>) {
  const [run] = await readRuns(db, workspaceId, [runId]);
  if (!run || run.session_id !== q.project_id) throw notFound(`Run ${runId} not found in project ${q.project_id}.`);
  return v2Run(run, q.selects);
}

/** GET /api/v2/runs/{id}/url: where the run is seen in the web UI. */
export function runUrl(workspaceId: string, runId: string, q: { project_id: string; trace_id: string }) {
  if (!q.project_id || !q.trace_id) throw badRequest("project_id and trace_id are required.");
  return { url: publicUrl(`/o/${workspaceId}/projects/p/${q.project_id}/r/${runId}`) };
}
