import { z } from "zod";
import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { feedbackStats } from "../feedback/stats";
import type { RunRow } from "../runs/columns";
import { traceRunRows } from "../runs/lookup";
import { fromStorage } from "../db/storable";

const count = z.number().nullable();
const time = z.string().nullable();

/**
 * A run as a public viewer sees it: content, timing, tokens and cost, but nothing that names the
 * workspace or project it lives in.
 */
export const wirePublicRun = z.object({
  id: z.string(),
  name: z.string(),
  run_type: z.string(),
  status: z.string(),
  start_time: time,
  end_time: time,
  inputs: z.unknown(),
  outputs: z.unknown(),
  error: z.string().nullable(),
  extra: z.unknown(),
  events: z.unknown(),
  tags: z.array(z.string()),
  trace_id: z.string(),
  dotted_order: z.string(),
  parent_run_id: z.string().nullable(),
  reference_example_id: z.string().nullable(),
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  prompt_cost: count,
  completion_cost: count,
  total_cost: count,
  first_token_time: time,
  feedback_stats: z.record(z.string(), z.unknown()),
});
export type PublicRun = z.infer<typeof wirePublicRun>;
export type PublicRunTree = PublicRun & { child_runs: PublicRunTree[] };
export const wirePublicRunTree: z.ZodType<PublicRunTree> = wirePublicRun.extend({ child_runs: z.lazy(() => z.array(wirePublicRunTree)) });

function publicRun(row: RunRow, stats: Record<string, unknown> | undefined): PublicRun {
  return {
    id: row.id,
    name: row.name,
    run_type: row.run_type,
    status: row.status,
    start_time: isoFromDb(row.start_time),
    end_time: isoFromDb(row.end_time),
    inputs: row.inputs ?? {},
    outputs: row.outputs,
    error: row.error,
    extra: row.extra,
    events: row.events ?? [],
    tags: row.tags ?? [],
    trace_id: row.trace_id,
    dotted_order: row.dotted_order,
    parent_run_id: row.parent_run_id,
    reference_example_id: row.reference_example_id,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    total_tokens: row.total_tokens,
    prompt_cost: row.prompt_cost,
    completion_cost: row.completion_cost,
    total_cost: row.total_cost,
    first_token_time: isoFromDb(row.first_token_time),
    feedback_stats: stats ?? {},
  };
}

/** Every run of the shared trace, in execution (dotted_order) order; `ids` narrows it. */
export async function sharedRuns(db: Sql, workspaceId: string, traceId: string, ids: string[] = []): Promise<PublicRun[]> {
  const rows = await traceRunRows(db, workspaceId, traceId, ids);
  if (rows.length === 0 && ids.length === 0) throw notFound("The shared trace no longer exists.");
  const stats = await feedbackStats(
    db,
    workspaceId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => publicRun(fromStorage(r), stats.get(r.id)));
}

/** GET /public/{token}/run: the trace's root with every run below it nested under `child_runs`. */
export async function sharedRunTree(db: Sql, workspaceId: string, traceId: string): Promise<PublicRunTree> {
  const runs = await sharedRuns(db, workspaceId, traceId);
  const nodes = new Map(runs.map((r) => [r.id, { ...r, child_runs: [] as PublicRunTree[] }]));
  const tops: PublicRunTree[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_run_id ? nodes.get(node.parent_run_id) : undefined;
    if (parent) parent.child_runs.push(node);
    else tops.push(node);
  }
  // The root may not have arrived yet: then the earliest run without a stored parent stands in.
  return nodes.get(traceId) ?? tops[0];
}
