import { toConversation } from "../llm/conversation";
import type { Message } from "../llm/conversation-types";
import type { SelectedRun } from "../runs/serialize";

/*
 * One example's cell per experiment (its runs, their scores as mean ± spread) and how a cell is
 * judged against the baseline's, for the comparison (compare.ts).
 */

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
export function summarizeScores(perRun: Record<string, number | null>[]): Record<string, Score> {
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

export function cellOf(runs: SelectedRun[]): Cell {
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

export type Judged = Pick<Cell, "scores" | "delta" | "verdict">;

export function judge(cell: Judged | null, base: Judged | null, key: string | null): void {
  if (!cell || !base || !key) return;
  const a = cell.scores[key]?.mean;
  const b = base.scores[key]?.mean;
  if (a === undefined || b === undefined) return;
  cell.delta = a - b;
  cell.verdict = cell.delta > EPSILON ? "better" : cell.delta < -EPSILON ? "worse" : "same";
}

/** Per experiment (not the baseline), per key: how many examples scored better, worse or the same as the baseline. */
export function countVerdicts(
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
export function byExample<R extends { reference_example_id?: string | null; session_id: string }, T>(
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
