import { createHash } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest, notFound } from "../core/errors";
import { isUuid, uuid } from "../core/uuid";
import { findDataset } from "../datasets/service";
import { insertFeedback } from "../feedback/store";
import { comparativeFeedback } from "../feedback/comparative";
import { experimentRuns } from "../runs/experiment-runs";
import { listSessions } from "../sessions/service";
import { comparativeWire, createComparativeExperiment, wireComparative } from "./comparative";

/** The key a reviewer's pick is stored under, as LangSmith's pairwise annotation does. */
export const PREFERENCE_KEY = "preference";

export const wirePreference = z.object({
  /** Examples where this experiment's run scored highest alone, where it tied for highest, and where another won. */
  wins: z.number(),
  ties: z.number(),
  losses: z.number(),
  /** wins / judged examples (ties count half). */
  win_rate: z.number().nullable(),
});

/** A comparison as LangSmith's API answers it (`experiments_info`, `feedback_stats`), with our win rates and picks. */
export const wirePairwiseSummary = wireComparative.extend({
  /** Per feedback key, per experiment. */
  preferences: z.record(z.string(), z.record(z.string(), wirePreference)),
  /** Per example id, per key: the experiment preferred (null for a tie). */
  picks: z.record(z.string(), z.record(z.string(), z.string().nullable())),
});
export type PairwiseSummary = z.infer<typeof wirePairwiseSummary>;

async function loadComparative(db: Sql, workspaceId: string, id: string) {
  const row = isUuid(id) ? await db.prisma.comparativeExperiment.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw notFound(`Comparative experiment ${id} not found.`);
  return row;
}

/**
 * Who won where: the comparison's feedback (the SDK's `evaluateComparative` and reviewers' picks)
 * grouped by example and key; per example the highest score wins, equal highest scores tie.
 */
async function summarize(db: Sql, workspaceId: string, row: Awaited<ReturnType<typeof loadComparative>>): Promise<PairwiseSummary> {
  const [sessions, runs, feedback] = await Promise.all([
    listSessions(db, workspaceId, { ids: row.experimentIds, limit: row.experimentIds.length }),
    experimentRuns(db, workspaceId, { projectIds: row.experimentIds, select: new Set(["reference_example_id"]) }),
    comparativeFeedback(db, workspaceId, row.id),
  ]);
  const runInfo = new Map(runs.map((r) => [r.id, { experiment: r.session_id, example: r.reference_example_id! }]));
  const scores = new Map<string, Map<string, Map<string, number[]>>>(); // key → example → experiment → scores
  for (const f of feedback) {
    const run = runInfo.get(f.runId);
    if (!run || f.score === null) continue;
    const byExample = scores.get(f.key) ?? new Map<string, Map<string, number[]>>();
    const byExperiment = byExample.get(run.example) ?? new Map<string, number[]>();
    byExperiment.set(run.experiment, [...(byExperiment.get(run.experiment) ?? []), f.score]);
    byExample.set(run.example, byExperiment);
    scores.set(f.key, byExample);
  }
  const preferences: PairwiseSummary["preferences"] = {};
  const picks: PairwiseSummary["picks"] = {};
  for (const [key, byExample] of scores) {
    const tally = Object.fromEntries(row.experimentIds.map((id) => [id, { wins: 0, ties: 0, losses: 0 }]));
    for (const [example, byExperiment] of byExample) {
      const means = [...byExperiment].map(([id, s]) => [id, s.reduce((a, b) => a + b, 0) / s.length] as const);
      const best = Math.max(...means.map(([, m]) => m));
      const top = means.filter(([, m]) => m === best).map(([id]) => id);
      for (const [id] of means) {
        if (!tally[id]) continue;
        if (!top.includes(id)) tally[id].losses++;
        else if (top.length > 1) tally[id].ties++;
        else tally[id].wins++;
      }
      picks[example] = { ...picks[example], [key]: top.length === 1 ? top[0] : null };
    }
    preferences[key] = Object.fromEntries(
      Object.entries(tally).map(([id, t]) => {
        const judged = t.wins + t.ties + t.losses;
        return [id, { ...t, win_rate: judged ? (t.wins + t.ties / 2) / judged : null }];
      }),
    );
  }
  const feedbackStats = Object.fromEntries(
    [...scores].map(([key, byExample]) => {
      const sums = new Map<string, number[]>();
      for (const byExperiment of byExample.values()) for (const [id, s] of byExperiment) sums.set(id, [...(sums.get(id) ?? []), ...s]);
      return [key, Object.fromEntries([...sums].map(([id, s]) => [id, s.reduce((a, b) => a + b, 0) / s.length]))];
    }),
  );
  return {
    ...comparativeWire(row, (id) => sessions.find((s) => s.id === id)?.name ?? id, feedbackStats),
    preferences,
    picks,
  };
}

/** The comparison's win rates and per-example picks. */
export async function pairwiseSummary(db: Sql, workspaceId: string, id: string): Promise<PairwiseSummary> {
  return summarize(db, workspaceId, await loadComparative(db, workspaceId, id));
}

/** GET /datasets/{id}/comparative: a dataset's comparisons, newest first, with their win rates. */
export async function listComparativeExperiments(db: Sql, workspaceId: string, datasetId: string): Promise<PairwiseSummary[]> {
  await findDataset(db, workspaceId, datasetId);
  const rows = await db.prisma.comparativeExperiment.findMany({
    where: { workspaceId, referenceDatasetId: datasetId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 100,
  });
  return Promise.all(rows.map((row) => summarize(db, workspaceId, row)));
}

/** Starts a reviewers' pairwise comparison of two experiments of a dataset. */
export async function startPairwise(db: Sql, workspaceId: string, input: { experimentIds: string[]; name?: string }) {
  if (input.experimentIds.length !== 2) throw badRequest("A pairwise review compares exactly two experiments.");
  return createComparativeExperiment(db, workspaceId, { experiment_ids: input.experimentIds, name: input.name ?? "Pairwise review" });
}

export const preferenceInput = z.object({
  comparativeId: uuid,
  exampleId: uuid,
  /** The experiment whose output is better, or null for a tie. */
  preferred: uuid.nullable(),
});

/** A stable id per reviewer, comparison, example and experiment: picking again replaces the pick. */
function pickId(...parts: string[]): string {
  const h = createHash("sha256").update(parts.join("/")).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A reviewer's pick between the two experiments' outputs for one example: the preferred run scores
 * 1 and the other 0 (a tie 0.5 each) under `preference`, as comparative feedback signed by the
 * reviewer. Picking again replaces the reviewer's earlier pick.
 */
export async function recordPreference(db: Sql, workspaceId: string, userId: string, input: z.infer<typeof preferenceInput>) {
  const row = await loadComparative(db, workspaceId, input.comparativeId);
  if (input.preferred && !row.experimentIds.includes(input.preferred))
    throw badRequest("The preferred experiment is not part of this comparison.");
  const runs = await experimentRuns(db, workspaceId, {
    projectIds: row.experimentIds,
    exampleIds: [input.exampleId],
    select: new Set(["trace_id"]),
  });
  const first = new Map<string, (typeof runs)[number]>();
  for (const run of runs) if (!first.has(run.session_id)) first.set(run.session_id, run);
  if (first.size < row.experimentIds.length) throw badRequest("Both experiments need a run on this example to compare them.");
  // Both runs' scores in one statement: a pick is never half recorded.
  await insertFeedback(
    db,
    workspaceId,
    [...first].map(([experimentId, run]) => ({
      id: pickId(userId, row.id, input.exampleId, experimentId),
      run_id: run.id,
      key: PREFERENCE_KEY,
      score: input.preferred === null ? 0.5 : input.preferred === experimentId ? 1 : 0,
      comparative_experiment_id: row.id,
      feedback_source: { type: "app", metadata: { user_id: userId } },
    })),
  );
  return pairwiseSummary(db, workspaceId, row.id);
}
