import { z } from "zod";
import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { uuid } from "../core/uuid";
import { findDataset } from "../datasets/service";
import { toConversation } from "../llm/conversation";
import type { Message } from "../llm/conversation-types";
import { readExamples } from "../datasets/examples";
import { exampleOutlines } from "../datasets/ordered";
import { scoresOfRuns } from "../feedback/stats";
import { experimentRunOutlines, experimentRuns } from "../runs/experiment-runs";
import type { SelectedRun } from "../runs/serialize";
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

/** Scores of one example in one experiment, over its repetitions. */
export interface Score {
  mean: number;
  /** Population standard deviation over the repetitions (0 for one). */
  spread: number;
  n: number;
}

export type Verdict = "better" | "worse" | "same";

export interface CellRun {
  id: string;
  trace_id: string;
  status: string;
  error: string | null;
  latency: number | null;
  total_tokens: number | null;
  total_cost: number | null;
  outputs: unknown;
  outputs_preview: string | null;
  /** The outputs as chat messages, when they are a model's answer in a format we read; null otherwise. */
  output_messages: Message[] | null;
  scores: Record<string, number | null>;
}

export interface Cell {
  runs: CellRun[];
  scores: Record<string, Score>;
  latency: number | null;
  total_tokens: number | null;
  total_cost: number | null;
  errors: number;
  /** This cell's score on the chosen key minus the baseline's, when both have one. */
  delta: number | null;
  verdict: Verdict | null;
}

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

const EPSILON = 1e-9;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const spread = (xs: number[], m: number) => Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);

function runScores(run: SelectedRun): Record<string, number | null> {
  return Object.fromEntries(Object.entries(run.feedback_stats ?? {}).map(([key, stats]) => [key, stats.avg]));
}

function outputMessages(outputs: unknown): Message[] | null {
  if (!outputs) return null;
  const conversation = toConversation({ run_type: "llm", inputs: null, outputs });
  return conversation.format !== "unknown" && conversation.output.length ? conversation.output : null;
}

/** Per key, the mean and spread of the runs' scores (repetitions of one example). */
function summarizeScores(perRun: Record<string, number | null>[]): Record<string, Score> {
  const byKey = new Map<string, number[]>();
  for (const scores of perRun)
    for (const [key, value] of Object.entries(scores)) if (value !== null) byKey.set(key, [...(byKey.get(key) ?? []), value]);
  return Object.fromEntries(
    [...byKey].map(([key, values]) => {
      const m = mean(values)!;
      return [key, { mean: m, spread: spread(values, m), n: values.length }];
    }),
  );
}

function cellOf(runs: SelectedRun[]): Cell {
  const scores = summarizeScores(runs.map(runScores));
  const numbers = (pick: (r: SelectedRun) => number | null | undefined) => runs.map(pick).filter((v): v is number => typeof v === "number");
  return {
    runs: runs.map((r) => ({
      id: r.id,
      trace_id: r.trace_id,
      status: r.status,
      error: r.error ?? null,
      latency: r.latency ?? null,
      total_tokens: r.total_tokens ?? null,
      total_cost: r.total_cost ?? null,
      outputs: r.outputs ?? null,
      outputs_preview: r.outputs_preview ?? null,
      output_messages: outputMessages(r.outputs),
      scores: runScores(r),
    })),
    scores,
    latency: mean(numbers((r) => r.latency)),
    total_tokens: mean(numbers((r) => r.total_tokens)),
    total_cost: mean(numbers((r) => r.total_cost)),
    errors: runs.filter((r) => r.status === "error").length,
    delta: null,
    verdict: null,
  };
}

type Judged = Pick<Cell, "scores" | "delta" | "verdict">;

function judge(cell: Judged | null, base: Judged | null, key: string | null): void {
  if (!cell || !base || !key) return;
  const a = cell.scores[key]?.mean;
  const b = base.scores[key]?.mean;
  if (a === undefined || b === undefined) return;
  cell.delta = a - b;
  cell.verdict = cell.delta > EPSILON ? "better" : cell.delta < -EPSILON ? "worse" : "same";
}

/** Per experiment (not the baseline), per key: how many examples scored better, worse or the same as the baseline. */
function countVerdicts(
  judged: Map<string, Record<string, Judged | null>>,
  ids: string[],
  baselineId: string,
  keys: string[],
): Map<string, Record<string, Record<Verdict, number>>> {
  const counts = new Map<string, Record<string, Record<Verdict, number>>>();
  for (const id of ids) {
    if (id === baselineId) continue;
    const perKey: Record<string, Record<Verdict, number>> = {};
    for (const key of keys) {
      const tally: Record<Verdict, number> = { better: 0, worse: 0, same: 0 };
      for (const row of judged.values()) {
        const probe: Judged | null = row[id] ? { scores: row[id]!.scores, delta: null, verdict: null } : null;
        judge(probe, row[baselineId], key);
        if (probe?.verdict) tally[probe.verdict]++;
      }
      perKey[key] = tally;
    }
    counts.set(id, perKey);
  }
  return counts;
}

/**
 * The key a comparison opens on: the one whose mean moved most against the baseline in any
 * experiment (ties: the most examples that changed, then the most that got worse); the first key
 * when nothing moved or there is one experiment.
 */
export function keyThatMovedMost(
  sessions: { id: string; feedback_stats?: Record<string, { avg?: number | null }> | null }[],
  ids: string[],
  baselineId: string,
  keys: string[],
  verdicts: Map<string, Record<string, Record<Verdict, number>>>,
): string | undefined {
  const avg = (id: string, key: string) => sessions.find((s) => s.id === id)?.feedback_stats?.[key]?.avg ?? null;
  const movement = (key: string): [number, number, number] => {
    let [shift, changed, worse] = [0, 0, 0];
    for (const id of ids) {
      if (id === baselineId) continue;
      const [mine, base] = [avg(id, key), avg(baselineId, key)];
      if (mine != null && base != null) shift = Math.max(shift, Math.abs(mine - base));
      const v = verdicts.get(id)?.[key];
      if (v) [changed, worse] = [Math.max(changed, v.better + v.worse), Math.max(worse, v.worse)];
    }
    return [shift, changed, worse];
  };
  let best = keys[0];
  let bestMove = best ? movement(best) : [0, 0, 0];
  for (const key of keys.slice(1)) {
    const m = movement(key);
    const gain = m[0] - bestMove[0] > EPSILON ? 1 : bestMove[0] - m[0] > EPSILON ? -1 : m[1] - bestMove[1] || m[2] - bestMove[2];
    if (gain > 0) [best, bestMove] = [key, m];
  }
  return best;
}

/** Runs grouped by example, then by experiment, each group made into `make`'s value (null where an experiment has none). */
function byExample<R extends { reference_example_id?: string | null; session_id: string }, T>(
  runs: R[],
  experimentIds: string[],
  make: (runs: R[]) => T,
): Map<string, Record<string, T | null>> {
  const grouped = new Map<string, Map<string, R[]>>();
  for (const run of runs) {
    const exampleId = run.reference_example_id!;
    const perExperiment = grouped.get(exampleId) ?? new Map<string, R[]>();
    perExperiment.set(run.session_id, [...(perExperiment.get(run.session_id) ?? []), run]);
    grouped.set(exampleId, perExperiment);
  }
  return new Map(
    [...grouped].map(([exampleId, perExperiment]) => [
      exampleId,
      Object.fromEntries(experimentIds.map((id) => [id, perExperiment.has(id) ? make(perExperiment.get(id)!) : null])),
    ]),
  );
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
