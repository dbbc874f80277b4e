import { z } from "zod";
import type { Sql } from "../db/client";
import { queryRuns } from "./query";
import type { RunSelection } from "./selection";
import { IDENTITY_FIELDS, storedRun, type SelectedRun, type WireRun } from "./serialize";
import { sortedRuns, type SortKey } from "./sorted";

/** The fields the runs table shows; inputs and outputs stay in the database until a run is opened. */
export const TABLE_FIELDS = [
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "error",
  "tags",
  "trace_id",
  "dotted_order",
  "parent_run_id",
  "session_id",
  "latency",
  "first_token_time",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_cost",
  "completion_cost",
  "total_cost",
  "feedback_stats",
  "thread_id",
  "inputs_preview",
  "outputs_preview",
  "model",
] as const satisfies readonly (keyof WireRun)[];

/** What the runs table shows of a run: the fields it selects, which every run of the page has. */
const runSummary = storedRun.pick(
  Object.fromEntries([...IDENTITY_FIELDS, ...TABLE_FIELDS].map((f) => [f, true])) as {
    [K in (typeof IDENTITY_FIELDS)[number] | (typeof TABLE_FIELDS)[number]]: true;
  },
);
type RunSummary = z.infer<typeof runSummary>;
const asTableRuns = (runs: SelectedRun[]) => runs as RunSummary[];
/** A page of the runs table: POST /runs/query's runs, with the cursor (or offset) of the next page. */
export const runSummaryPage = z.object({ runs: z.array(runSummary), next: z.string().nullable() });

/**
 * One page of the runs table. By time (newest first unless asked otherwise) `cursor` is the keyset
 * cursor of the previous page; by a measure, pages are offsets and the cursor is one.
 */
export async function runsTablePage(
  db: Sql,
  workspaceId: string,
  selection: RunSelection,
  page: { cursor?: string | null; limit: number; sort?: { by: "start_time" | SortKey; dir: "asc" | "desc" } },
): Promise<z.infer<typeof runSummaryPage>> {
  const sort = page.sort ?? { by: "start_time", dir: "desc" };
  if (sort.by !== "start_time") {
    const offset = Number(page.cursor ?? 0) || 0;
    const sorted = await sortedRuns(db, workspaceId, selection, { by: sort.by, dir: sort.dir }, offset, page.limit, [...TABLE_FIELDS]);
    return { runs: asTableRuns(sorted.runs), next: sorted.next === null ? null : String(sorted.next) };
  }
  const byTime = await queryRuns(db, workspaceId, {
    ...selection,
    cursor: page.cursor ?? undefined,
    limit: page.limit,
    fields: [...TABLE_FIELDS],
    order: sort.dir,
  });
  return { runs: asTableRuns(byTime.runs), next: byTime.cursors.next };
}
