import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { uuid } from "../core/uuid";
import { findDataset } from "../datasets/service";
import { readExamples } from "../datasets/examples";
import { exampleOutlines } from "../datasets/ordered";
import { scoresOfRuns } from "../feedback/stats";
import { experimentRunOutlines, experimentRuns } from "../runs/experiment-runs";
import { byExample, cellOf, countVerdicts, judge, keyThatMovedMost, summarizeScores, type Cell, type Judged, type Verdict } from "./cells";
import { loadExperiments, summaryOf, type Experiment } from "./list";

/** What the comparison page asks for: 1–5 experiments of one dataset, one of them the baseline. */
export const comparisonQuery = z.object({
  datasetId: uuid,
  experimentIds: z.array(uuid).min(1, "pick at least one experiment").max(5, "compare at most five experiments"),
  baselineId: uuid.optional(),
  /** The feedback key that colours cells and decides regressions; when absent, the key that moved most. */
  scoreKey: z.string().max(256).optional(),
  only: z.enum(["all", "regressions", "improvements"]).default("all"),
  split: z.string().max(256).optional(),
  /** `example`: dataset order; `delta`: the largest regression against the baseline first. */
  sort: z.enum(["example", "delta"]).default("example"),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100).default(25),
});
export type ComparisonQuery = z.input<typeof comparisonQuery>;

export interface ComparedExample {
  id: string;
  /** False when the example was deleted from the dataset after the experiment ran. */
  exists: boolean;
  inputs: unknown;
  outputs: unknown;
  splits: string[];
  cells: Record<string, Cell | null>;
}

export interface ExperimentSummary extends Experiment {
  /** Per key, the mean score minus the baseline's. */
  delta: Record<string, number | null>;
  /** Examples better, worse and the same as the baseline on the chosen key. */
  verdicts: Record<Verdict, number>;
  /** The same counts for every feedback key. */
  verdicts_by_key: Record<string, Record<Verdict, number>>;
}

export interface Comparison {
  dataset: { id: string; name: string };
  experiments: ExperimentSummary[];
  baseline_id: string;
  keys: string[];
  score_key: string | null;
  splits: string[];
  /** Examples after the split and regression filters (the rows pages walk through). */
  total: number;
  rows: ComparedExample[];
}

/**
 * The experiments of a dataset side by side, example by example: every example any of them ran,
 * each experiment's runs for it (repetitions as mean ± spread), scores judged against the baseline
 * on one feedback key, filtered to regressions or improvements, one page at a time.
 */
export async function compareExperiments(db: Sql, workspaceId: string, input: ComparisonQuery): Promise<Comparison> {
  const q = comparisonQuery.parse(input);
  const ids = [...new Set(q.experimentIds)];
  const baselineId = q.baselineId ?? ids[0];
  if (!ids.includes(baselineId)) throw badRequest("The baseline must be one of the compared experiments.");
  const dataset = await findDataset(db, workspaceId, q.datasetId);
  const sessions = await loadExperiments(db, workspaceId, ids, true);
  const foreign = sessions.find((s) => s.reference_dataset_id !== dataset.id);
  if (foreign) throw badRequest(`${foreign.name} is not an experiment on dataset ${dataset.name}.`);

  // Every run's scores decide the rows (one light read); only the page's runs and examples are read whole, below.
  const outlines = await experimentRunOutlines(db, workspaceId, ids);
  const scores = await scoresOfRuns(
    db,
    workspaceId,
    outlines.map((o) => o.id),
  );
  const judged = byExample(outlines, ids, (runs): Judged => ({
    scores: summarizeScores(runs.map((r) => scores.get(r.id) ?? {})),
    delta: null,
    verdict: null,
  }));
  const keys = [...new Set(sessions.flatMap((s) => Object.keys(s.feedback_stats ?? {})))].sort();
  const verdictsByKey = countVerdicts(judged, ids, baselineId, keys);
  const scoreKey = q.scoreKey ?? keyThatMovedMost(sessions, ids, baselineId, keys, verdictsByKey) ?? null;
  for (const row of judged.values()) for (const id of ids) if (id !== baselineId) judge(row[id], row[baselineId], scoreKey);

  const outlined = await exampleOutlines(db, workspaceId, [...judged.keys()]);
  const splitsOf = new Map(outlined.map((e) => [e.id, e.splits]));
  // The dataset's order; examples deleted since the experiments ran come last.
  let exampleIds = [...outlined.map((e) => e.id), ...[...judged.keys()].filter((id) => !splitsOf.has(id)).sort()];
  const splits = [...new Set(outlined.flatMap((e) => e.splits))].sort();
  if (q.split) exampleIds = exampleIds.filter((id) => splitsOf.get(id)?.includes(q.split!));
  const others = (id: string) => ids.filter((e) => e !== baselineId).map((e) => judged.get(id)![e]);
  if (q.only !== "all") {
    const wanted: Verdict = q.only === "regressions" ? "worse" : "better";
    exampleIds = exampleIds.filter((id) => others(id).some((c) => c?.verdict === wanted));
  }
  if (q.sort === "delta") {
    const worst = (id: string) => Math.min(...others(id).map((c) => c?.delta ?? Infinity));
    exampleIds.sort((a, b) => worst(a) - worst(b));
  }

  const page = exampleIds.slice(q.offset, q.offset + q.limit);
  const [full, pageExamples] = await Promise.all([
    experimentRuns(db, workspaceId, { projectIds: ids, exampleIds: page, heavy: new Set(["outputs"]) }),
    readExamples(db, workspaceId, page),
  ]);
  const pageCells = byExample(full, ids, cellOf);
  const examples = new Map(pageExamples.map((e) => [e.id, e]));
  const rows = page.map((id) => {
    const row = pageCells.get(id)!;
    for (const e of ids) if (e !== baselineId) judge(row[e], row[baselineId], scoreKey);
    const example = examples.get(id);
    return {
      id,
      exists: Boolean(example),
      inputs: example?.inputs ?? null,
      outputs: example?.outputs ?? null,
      splits: splitsOf.get(id) ?? [],
      cells: row,
    };
  });

  const base = summaryOf(sessions.find((x) => x.id === baselineId)!);
  const experiments = ids.map((id): ExperimentSummary => {
    const summary = summaryOf(sessions.find((x) => x.id === id)!);
    const verdicts_by_key = verdictsByKey.get(id) ?? {};
    const verdicts = (scoreKey && verdicts_by_key[scoreKey]) || { better: 0, worse: 0, same: 0 };
    const delta = (key: string) => {
      const [mine, theirs] = [summary.feedback[key]?.avg, base.feedback[key]?.avg];
      return id === baselineId || mine == null || theirs == null ? null : mine - theirs;
    };
    return { ...summary, delta: Object.fromEntries(keys.map((key) => [key, delta(key)])), verdicts, verdicts_by_key };
  });
  return {
    dataset: { id: dataset.id, name: dataset.name },
    experiments,
    baseline_id: baselineId,
    keys,
    score_key: scoreKey,
    splits,
    total: exampleIds.length,
    rows,
  };
}
