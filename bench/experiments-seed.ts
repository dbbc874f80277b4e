import { randomUUID } from "node:crypto";
import type { Database } from "../server/db/client";
import { createExamples } from "../server/datasets/examples";
import { createDataset } from "../server/datasets/service";
import { insertFeedback } from "../server/feedback/store";
import { ingestRuns } from "../server/ingest/service";
import { createSession } from "../server/sessions/service";

/**
 * A dataset of `size` examples and two experiments over it, as evaluate() records them: a root run
 * per example with its outputs, and a `correct` score on each (the second experiment is wrong on
 * every tenth example). Returns the ids the compare page needs.
 */
export async function seedExperiments(db: Database, workspaceId: string, size: number) {
  const dataset = await createDataset(db.sql, workspaceId, { name: `bench-${size}` } as never);
  const { example_ids: examples } = await createExamples(
    db.sql,
    workspaceId,
    dataset.id,
    Array.from({ length: size }, (_, i) => ({ inputs: { question: `What is ${i} + ${i}?` }, outputs: { answer: String(2 * i) } })),
  );
  const experiments: string[] = [];
  for (const name of ["baseline", "candidate"]) {
    const project = await createSession(db.sql, workspaceId, { name: `bench-${name}`, reference_dataset_id: dataset.id });
    experiments.push(project.id);
    const wrong = (i: number) => name === "candidate" && i % 10 === 0;
    const runs = examples.map((example, i) => ({
      id: randomUUID(),
      name: "target",
      run_type: "chain",
      session_name: `bench-${name}`,
      reference_example_id: example,
      start_time: Date.UTC(2026, 10, 25, 12, 0, 0, i),
      end_time: Date.UTC(2026, 10, 25, 12, 0, 0, i + 400),
      inputs: { question: `What is ${i} + ${i}?` },
      outputs: { answer: wrong(i) ? "I am not sure" : String(2 * i) },
    }));
    for (let i = 0; i < runs.length; i += 500) await ingestRuns(db.sql, workspaceId, { post: runs.slice(i, i + 500) });
    await insertFeedback(
      db.sql,
      workspaceId,
      runs.map((run, i) => ({ run_id: run.id, key: "correct", score: wrong(i) ? 0 : 1 })),
    );
  }
  return { datasetId: dataset.id, experiments };
}
