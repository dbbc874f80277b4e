import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { findDataset } from "../datasets/service";
import { listSessions } from "../sessions/service";
import type { ProjectWithStats } from "../sessions/schema";

/** An experiment: a project that ran over a dataset, with its statistics. */
export interface Experiment {
  id: string;
  name: string;
  start_time: string;
  metadata: Record<string, unknown>;
  run_count: number;
  error_rate: number | null;
  latency_p50: number | null;
  latency_p99: number | null;
  total_tokens: number | null;
  total_cost: number | null;
  feedback: Record<string, { avg: number | null; n: number; stdev: number | null }>;
}

/** An experiment (a project on a dataset) with its statistics, as the experiments views list it. */
export function summaryOf(s: ProjectWithStats): Experiment {
  return {
    id: s.id,
    name: s.name,
    start_time: s.start_time,
    metadata: (s.extra.metadata as Record<string, unknown> | undefined) ?? {},
    run_count: s.run_count ?? 0,
    error_rate: s.error_rate ?? null,
    latency_p50: s.latency_p50 ?? null,
    latency_p99: s.latency_p99 ?? null,
    total_tokens: s.total_tokens ?? null,
    total_cost: s.total_cost ?? null,
    feedback: Object.fromEntries(
      Object.entries(s.feedback_stats ?? {}).map(([key, f]) => [key, { avg: f.avg, n: f.n, stdev: f.stdev ?? null }]),
    ),
  };
}

/** A dataset's experiments, newest first, with their statistics and feedback averages. */
export async function listExperiments(db: Sql, workspaceId: string, datasetId: string): Promise<Experiment[]> {
  await findDataset(db, workspaceId, datasetId);
  const sessions = await listSessions(db, workspaceId, { referenceDatasetIds: [datasetId], includeStats: true, limit: 1000 });
  return sessions.map(summaryOf);
}

/** These experiments (projects of the workspace), in the order given; 404 naming those that are not. */
export async function loadExperiments(db: Sql, workspaceId: string, ids: string[], includeStats = false): Promise<ProjectWithStats[]> {
  const found = await listSessions(db, workspaceId, { ids, includeStats, limit: ids.length });
  const missing = ids.filter((id) => !found.some((s) => s.id === id));
  if (missing.length) throw notFound(`Experiment ${missing.join(", ")} not found.`);
  return ids.map((id) => found.find((s) => s.id === id)!);
}
