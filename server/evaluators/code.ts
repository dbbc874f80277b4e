import type { RunForEvaluation } from "./prompt";
import type { EvaluationJob } from "./queues";
import type { Outcome } from "./record";
import { runPythonInSandbox } from "./python";
import { runInSandbox, type SandboxJob } from "./sandbox";
import type { Evaluator } from "./store";
import { VerdictError, type VerdictFeedback } from "./verdict";

/** The run a code evaluator judges, with its example (an experiment's run) when it has one. */
export type CodeTarget = RunForEvaluation & {
  trace_id: string;
  example_id: string | null;
  example_inputs: unknown;
  example_metadata: unknown;
};

const RESULT_FIELDS = new Set([
  "key",
  "score",
  "value",
  "comment",
  "correction",
  "evaluator_info",
  "evaluatorInfo",
  "source_run_id",
  "sourceRunId",
]);

/** One result as feedback: a number scores, a boolean scores 1 or 0 with the boolean as value, anything else is the value. */
function oneResult(key: string, score: unknown, value: unknown, comment: unknown): VerdictFeedback {
  if (!key) throw new VerdictError("a result has no key");
  if (comment !== undefined && comment !== null && typeof comment !== "string")
    throw new VerdictError(`"${key}": comment must be a string`);
  const text = (comment as string | null | undefined) ?? null;
  if (typeof score === "boolean") return { key, score: score ? 1 : 0, value: typeof value === "string" ? value : score, comment: text };
  if (score !== undefined && score !== null && (typeof score !== "number" || !Number.isFinite(score))) {
    throw new VerdictError(`"${key}": score must be a number or a boolean; got ${JSON.stringify(score)}`);
  }
  const plain =
    value === undefined
      ? null
      : typeof value === "object" && value !== null
        ? JSON.stringify(value)
        : (value as string | number | boolean | null);
  if (typeof plain === "boolean" && (score === undefined || score === null))
    return { key, score: plain ? 1 : 0, value: plain, comment: text };
  if (typeof plain === "number" && (score === undefined || score === null)) return { key, score: plain, value: null, comment: text };
  return { key, score: (score as number | null | undefined) ?? null, value: plain, comment: text };
}

const isResult = (o: Record<string, unknown>) =>
  typeof o.key === "string" || (Object.keys(o).length > 0 && Object.keys(o).every((k) => RESULT_FIELDS.has(k)));

/**
 * A code evaluator's answer as feedback. Like LangSmith's: `{score, value, comment}` (the
 * evaluator's name is the key unless `key` says), `{results: [...]}` of those, or an object of
 * feedback keys to their scores or values (`{"exact_match": true}`, with `comment` for all).
 */
export function codeFeedback(name: string, answer: unknown): VerdictFeedback[] {
  if (typeof answer === "number" || typeof answer === "boolean") return [oneResult(name, answer, undefined, undefined)];
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw new VerdictError(
      `performEval must return an object ({score, value, comment}, {results: [...]} or {key: score}); it returned ${JSON.stringify(answer)}`,
    );
  }
  const o = answer as Record<string, unknown>;
  if (Array.isArray(o.results)) {
    return o.results.map((r, i) => {
      if (typeof r !== "object" || r === null) throw new VerdictError(`results[${i}] is not an object`);
      const item = r as Record<string, unknown>;
      return oneResult(typeof item.key === "string" ? item.key : name, item.score, item.value, item.comment);
    });
  }
  if (isResult(o)) return [oneResult(typeof o.key === "string" ? o.key : name, o.score, o.value, o.comment)];
  const { comment, ...keys } = o;
  if (Object.keys(keys).length === 0) throw new VerdictError("performEval returned an object with no feedback keys");
  return Object.entries(keys).map(([key, v]) =>
    typeof v === "number" || typeof v === "boolean" ? oneResult(key, v, undefined, comment) : oneResult(key, undefined, v, comment),
  );
}

/** What the evaluator's function reads: the run's fields and the example's, as LangSmith passes them. */
function sandboxData(t: CodeTarget) {
  const run = {
    id: t.id,
    trace_id: t.trace_id,
    name: t.name,
    run_type: t.run_type,
    inputs: t.inputs,
    outputs: t.outputs,
    error: t.error,
    tags: t.tags,
    metadata: t.metadata,
    reference_example_id: t.example_id,
  };
  const example = t.example_id ? { id: t.example_id, inputs: t.example_inputs, outputs: t.reference, metadata: t.example_metadata } : null;
  return { run, example };
}

/**
 * A batch's code evaluations: JavaScript and TypeScript together in one sandbox thread (QuickJS),
 * Python in a sandboxed process per evaluator (Pyodide). Each answer becomes feedback, or the
 * evaluation's error — a thrown exception, a limit hit, an answer of the wrong shape: none is retried.
 */
export async function runCodeEvaluations(items: { job: EvaluationJob; evaluator: Evaluator; target: CodeTarget }[]): Promise<Outcome[]> {
  const idOf = (i: { job: EvaluationJob }) => `${i.job.rule_id}:${i.job.run_id}`;
  const python = items.filter((i) => i.evaluator.language === "python");
  const jobs: SandboxJob[] = items
    .filter((i) => i.evaluator.language !== "python")
    .map((i) => ({
      id: idOf(i),
      code: i.evaluator.code ?? "",
      language: i.evaluator.language === "typescript" ? "typescript" : "javascript",
      ...sandboxData(i.target),
    }));
  const [answers, pythonAnswers] = await Promise.all([
    jobs.length ? runInSandbox(jobs) : new Map(),
    python.length
      ? runPythonInSandbox(
          python.map((i) => ({ id: idOf(i), evaluatorId: i.evaluator.id, code: i.evaluator.code ?? "", ...sandboxData(i.target) })),
        )
      : new Map(),
  ]);
  for (const [id, answer] of pythonAnswers) answers.set(id, answer);
  return items.map(({ job, evaluator, target }): Outcome => {
    const answer = answers.get(`${job.rule_id}:${job.run_id}`) ?? { error: "the sandbox gave no answer" };
    if ("error" in answer) return { job, evaluator, target, error: `code evaluator failed: ${answer.error}`, status: null };
    try {
      return { job, evaluator, target, feedback: codeFeedback(evaluator.name, answer.value) };
    } catch (error) {
      if (!(error instanceof VerdictError)) throw error;
      return { job, evaluator, target, error: `code evaluator answered wrongly: ${error.message}`, status: null };
    }
  });
}
