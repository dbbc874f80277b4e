import { z } from "zod";
import { IDENTITY_FIELDS, storedRun, type SelectedRun, type WireRun } from "./serialize";

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
export const asTableRuns = (runs: SelectedRun[]) => runs as RunSummary[];
/** A page of the runs table: POST /runs/query's runs, with the cursor (or offset) of the next page. */
export const runSummaryPage = z.object({ runs: z.array(runSummary), next: z.string().nullable() });
