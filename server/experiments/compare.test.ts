import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import { AppError } from "../core/errors";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { createExamples } from "../datasets/examples";
import { createDataset } from "../datasets/service";
import { createFeedback } from "../feedback/service";
import { ingestRuns } from "../ingest/service";
import { createSession } from "../sessions/service";
import { createComparativeExperiment } from "./comparative";
import { compareExperiments } from "./compare";
import { listExperiments } from "./list";
import { listComparativeExperiments, pairwiseSummary, recordPreference, startPairwise } from "./pairwise";

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

/** An experiment as evaluate() records it: a project on the dataset, a root run per example and repetition, feedback on each. */
async function experiment(
  db: Sql,
  ws: string,
  datasetId: string,
  name: string,
  answers: { example: string; score: number; answer: string }[],
) {
  const project = await createSession(db, ws, { name, reference_dataset_id: datasetId, extra: { metadata: { model: name } } });
  for (const [i, a] of answers.entries()) {
    const id = randomUUID();
    const start = Date.UTC(2026, 10, 25, 12, 0, i);
    await ingestRuns(db, ws, {
      post: [
        {
          id,
          name: "target",
          run_type: "chain",
          session_name: name,
          reference_example_id: a.example,
          start_time: start,
          end_time: start + 500,
          inputs: { q: i },
          outputs: { answer: a.answer },
        },
      ],
    });
    await createFeedback(db, ws, { run_id: id, key: "correct", score: a.score } as never);
  }
  return project.id;
}

withTestDatabases("experiments", (open) => {
  test("experiments side by side (scores per example, repetitions, regressions against a baseline) and a pairwise review", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "experiments")).id;
    const dataset = await createDataset(db, ws, { name: "qa" } as never);
    const { example_ids: examples } = await createExamples(
      db,
      ws,
      dataset.id,
      ["a", "b", "c"].map((q, i) => ({ inputs: { q }, outputs: { answer: q.toUpperCase() }, split: i === 2 ? "hard" : "easy" })),
    );
    const [a, b, c] = examples;
    const perfect = await experiment(db, ws, dataset.id, "perfect", [
      { example: a, score: 1, answer: "A" },
      { example: b, score: 1, answer: "B" },
      { example: c, score: 1, answer: "C" },
    ]);
    // Two repetitions of example a (scores 1 and 0), a regression on b, the same on c.
    const worse = await experiment(db, ws, dataset.id, "worse", [
      { example: a, score: 1, answer: "A" },
      { example: a, score: 0, answer: "a" },
      { example: b, score: 0, answer: "b" },
      { example: c, score: 1, answer: "C" },
    ]);

    const listed = await listExperiments(db, ws, dataset.id);
    assert.deepEqual(listed.map((e) => e.name).sort(), ["perfect", "worse"]);
    assert.equal(listed.find((e) => e.id === perfect)!.feedback.correct.avg, 1);
    assert.equal(listed.find((e) => e.id === worse)!.feedback.correct.avg, 0.5);
    assert.deepEqual(listed.find((e) => e.id === worse)!.metadata, { model: "worse" });

    const all = await compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [perfect, worse] });
    assert.equal(all.baseline_id, perfect);
    assert.equal(all.score_key, "correct");
    assert.deepEqual(all.splits, ["easy", "hard"]);
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.rows.map((r) => r.id),
      [a, b, c],
    );
    const [rowA, rowB, rowC] = all.rows;
    assert.deepEqual(rowA.cells[worse]!.scores.correct, { mean: 0.5, spread: 0.5, n: 2 });
    assert.equal(rowA.cells[worse]!.runs.length, 2);
    assert.equal(rowA.cells[worse]!.verdict, "worse");
    assert.equal(rowB.cells[worse]!.delta, -1);
    assert.equal(rowC.cells[worse]!.verdict, "same");
    assert.deepEqual(rowB.cells[worse]!.runs[0].outputs, { answer: "b" });
    assert.deepEqual(rowB.outputs, { answer: "B" });
    const summary = all.experiments.find((e) => e.id === worse)!;
    assert.deepEqual(summary.verdicts, { better: 0, worse: 2, same: 1 });
    assert.equal(summary.delta.correct, -0.5);
    assert.equal(all.experiments.find((e) => e.id === perfect)!.delta.correct, null);

    const regressions = await compareExperiments(db, ws, {
      datasetId: dataset.id,
      experimentIds: [perfect, worse],
      only: "regressions",
      sort: "delta",
    });
    assert.deepEqual(
      regressions.rows.map((r) => r.id),
      [b, a],
      "regressions only, the largest first",
    );
    const improvements = await compareExperiments(db, ws, {
      datasetId: dataset.id,
      experimentIds: [perfect, worse],
      baselineId: worse,
      only: "improvements",
    });
    assert.deepEqual(
      improvements.rows.map((r) => r.id),
      [a, b],
    );
    const hard = await compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [perfect, worse], split: "hard" });
    assert.deepEqual(
      hard.rows.map((r) => r.id),
      [c],
    );
    const paged = await compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [perfect, worse], offset: 1, limit: 1 });
    assert.deepEqual([paged.total, paged.rows.map((r) => r.id)], [3, [b]]);

    const tracing = await createSession(db, ws, { name: "not an experiment" });
    await assert.rejects(compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [perfect, tracing.id] }), status(400));
    await assert.rejects(compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [perfect], baselineId: worse }), status(400));
    const other = (await createWorkspace(db.prisma, "other")).id;
    await assert.rejects(compareExperiments(db, other, { datasetId: dataset.id, experimentIds: [perfect] }), status(404));
    await assert.rejects(listExperiments(db, other, dataset.id), status(404));

    // Pairwise review: a reviewer picks the better output per example; picking again replaces the pick.
    const review = await startPairwise(db, ws, { experimentIds: [perfect, worse] });
    const reviewer = randomUUID();
    await recordPreference(db, ws, reviewer, { comparativeId: review.id, exampleId: a, preferred: worse });
    await recordPreference(db, ws, reviewer, { comparativeId: review.id, exampleId: a, preferred: perfect });
    await recordPreference(db, ws, reviewer, { comparativeId: review.id, exampleId: b, preferred: perfect });
    const picked = await recordPreference(db, ws, reviewer, { comparativeId: review.id, exampleId: c, preferred: null });
    assert.deepEqual(picked.preferences.preference[perfect], { wins: 2, ties: 1, losses: 0, win_rate: 2.5 / 3 });
    assert.deepEqual(picked.preferences.preference[worse], { wins: 0, ties: 1, losses: 2, win_rate: 0.5 / 3 });
    assert.deepEqual(picked.picks[a], { preference: perfect });
    assert.deepEqual(picked.picks[c], { preference: null });
    assert.equal(picked.feedback_stats.preference[perfect], 2.5 / 3);
    assert.deepEqual(
      (await listComparativeExperiments(db, ws, dataset.id)).map((r) => r.id),
      [review.id],
    );
    await assert.rejects(
      recordPreference(db, ws, reviewer, { comparativeId: review.id, exampleId: a, preferred: tracing.id }),
      status(400),
    );
    await assert.rejects(pairwiseSummary(db, other, review.id), status(404));
    await assert.rejects(startPairwise(db, ws, { experimentIds: [perfect] }), status(400));
    await assert.rejects(createComparativeExperiment(db, ws, { id: review.id, experiment_ids: [perfect, worse] }), status(409));
  });
  test("the summary counts better/worse for every key and opens on the key that moved most", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "moved")).id;
    const dataset = await createDataset(db, ws, { name: "qa-moved" } as never);
    const { example_ids: examples } = await createExamples(
      db,
      ws,
      dataset.id,
      ["a", "b", "c"].map((q) => ({ inputs: { q }, outputs: { answer: q } })),
    );
    const base = await experiment(
      db,
      ws,
      dataset.id,
      "base",
      examples.map((example) => ({ example, score: 1, answer: "x" })),
    );
    const next = await experiment(
      db,
      ws,
      dataset.id,
      "next",
      examples.map((example) => ({ example, score: 1, answer: "x" })),
    );
    // "accuracy" (alphabetically first) does not move; "tone" drops on two examples of the second experiment.
    for (const [project, tones] of [
      [base, [1, 1, 1]],
      [next, [1, 0, 0]],
    ] as const) {
      const runs = await db.prisma.run.findMany({ where: { projectId: project }, orderBy: { startTime: "asc" }, select: { id: true } });
      for (const [i, run] of runs.entries()) {
        await createFeedback(db, ws, { run_id: run.id, key: "accuracy", score: 1 } as never);
        await createFeedback(db, ws, { run_id: run.id, key: "tone", score: tones[i] } as never);
      }
    }
    const compared = await compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [base, next] });
    assert.equal(compared.score_key, "tone");
    const summary = compared.experiments.find((e) => e.id === next)!;
    assert.deepEqual(summary.verdicts, { better: 0, worse: 2, same: 1 });
    assert.deepEqual(summary.verdicts_by_key.tone, { better: 0, worse: 2, same: 1 });
    assert.deepEqual(summary.verdicts_by_key.accuracy, { better: 0, worse: 0, same: 3 });
    assert.deepEqual(summary.verdicts_by_key.correct, { better: 0, worse: 0, same: 3 });
    // Asked for a key, the comparison keeps it.
    const chosen = await compareExperiments(db, ws, { datasetId: dataset.id, experimentIds: [base, next], scoreKey: "accuracy" });
    assert.equal(chosen.score_key, "accuracy");
    assert.deepEqual(chosen.experiments.find((e) => e.id === next)!.verdicts, { better: 0, worse: 0, same: 3 });
  });
});
