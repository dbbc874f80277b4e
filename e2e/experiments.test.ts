import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { call, collect, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

type Outputs = Record<string, any> | undefined;
const exact = ({ outputs, referenceOutputs }: { outputs?: Outputs; referenceOutputs?: Outputs }) => ({
  key: "exact",
  score: outputs?.answer === referenceOutputs?.answer ? 1 : 0,
});

describe("experiments: evaluate() twice, then every read of the results", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  test("a perfect and a worse experiment over five examples: statistics, experiment runs, re-scoring", async () => {
    const dataset = await client.createDataset(`e2e-exp-${randomUUID().slice(0, 8)}`);
    const questions = ["a", "b", "c", "d", "e"];
    await client.createExamples({
      datasetId: dataset.id,
      inputs: questions.map((q) => ({ q })),
      outputs: questions.map((q) => ({ answer: q.toUpperCase() })),
    });
    const accuracy = ({ runs, examples }: { runs: any[]; examples: any[] }) => ({
      key: "accuracy",
      score: runs.filter((r, i) => r.outputs?.answer === examples[i]?.outputs?.answer).length / runs.length,
    });
    const perfect = await evaluate((inputs: Record<string, any>) => ({ answer: String(inputs.q).toUpperCase() }), {
      data: dataset.name,
      client,
      experimentPrefix: "upper",
      metadata: { model: "upper-1" },
      evaluators: [exact],
      summaryEvaluators: [accuracy],
      maxConcurrency: 2,
    });
    // Wrong on "d" and "e", each example twice.
    const worse = await evaluate(
      (inputs: Record<string, any>) => ({ answer: ["d", "e"].includes(inputs.q) ? "?" : String(inputs.q).toUpperCase() }),
      {
        data: dataset.name,
        client,
        experimentPrefix: "guess",
        evaluators: [exact],
        numRepetitions: 2,
        maxConcurrency: 2,
      },
    );
    assert.equal(perfect.results.length, 5);
    assert.equal(worse.results.length, 10);
    await client.awaitPendingTraceBatches();

    const experiments = await eventually(async () => {
      const found = await collect(client.listProjects({ referenceDatasetId: dataset.id, includeStats: true }));
      return found.length === 2 && found.every((p: any) => p.run_count === (p.name === perfect.experimentName ? 5 : 10)) ? found : null;
    });
    const good = experiments.find((p) => p.name === perfect.experimentName)! as any;
    const bad = experiments.find((p) => p.name === worse.experimentName)! as any;
    assert.equal(good.feedback_stats.exact.avg, 1);
    assert.equal(good.feedback_stats.exact.n, 5);
    assert.equal(bad.feedback_stats.exact.avg, 0.6);
    assert.equal(bad.feedback_stats.exact.n, 10);
    assert.equal(good.feedback_stats.accuracy.avg, 1, "the summary evaluator's feedback lands on the experiment");
    assert.equal(good.error_rate, 0);
    assert.ok(good.latency_p50 >= 0);
    assert.equal(good.extra.metadata.model, "upper-1");
    assert.equal(bad.extra.metadata.num_repetitions, 2);

    const tracing = await collect(client.listProjects({ referenceFree: true }));
    assert.ok(!tracing.some((p) => p.reference_dataset_id), "reference_free lists tracing projects only");

    // The 0.12 client's v2 read: examples with their runs in both experiments, two per page.
    const pages = await collect(
      client.datasets.experimentRuns.query(dataset.id, {
        experiment_ids: [good.id, bad.id],
        selects: ["OUTPUTS", "FEEDBACK_STATS", "PROJECT_ID", "REFERENCE_EXAMPLE_ID"],
        page_size: 2,
      }),
    );
    assert.equal(pages.length, 5);
    for (const example of pages) {
      assert.equal(example.runs!.length, 3, "one run of the perfect experiment, two repetitions of the other");
      const wrong = ["D", "E"].includes((example.outputs as any).answer);
      for (const run of example.runs! as any[]) {
        assert.equal(run.reference_example_id, example.id);
        const expected = run.project_id === good.id || !wrong ? 1 : 0;
        assert.equal(run.feedback_stats.exact.avg, expected);
      }
    }
    const scored = await call(server, "GET", `/feedback?run=${pages[0].runs![0].id}&key=exact`);
    assert.match(
      scored.body[0].feedback_source.metadata.__run.run_id,
      /^[0-9a-f-]{36}$/,
      "evaluator feedback names the evaluator's run (source_run_id) as the SDK sent it",
    );
    const worstFirst = await client.datasets.experimentRuns.query(dataset.id, {
      experiment_ids: [bad.id],
      selects: ["FEEDBACK_STATS"],
      sort: { by: "feedback.exact", order: "ASC" },
      page_size: 2,
    });
    assert.deepEqual(worstFirst.items.map((e) => (e.outputs as any).answer).sort(), ["D", "E"]);
    const classic = await call(server, "POST", `/datasets/${dataset.id}/runs`, { session_ids: [good.id], limit: 3 });
    assert.equal(classic.status, 200);
    assert.equal(classic.body.length, 3);
    assert.deepEqual(
      classic.body[0].runs[0].outputs,
      { answer: classic.body[0].outputs.answer },
      "LangSmith's classic read: examples with whole runs",
    );
    const misuse = await call(server, "POST", `/api/v2/datasets/${dataset.id}/experiment-runs`, { experiment_ids: [] });
    assert.equal(misuse.status, 400);
    assert.match(misuse.body.detail, /experiment_ids/);

    // Re-scoring an existing experiment: its runs get a new key. (evaluate() takes an experiment's
    // runs instead of a target at run time; its types name only targets.)
    await evaluate(client.listRuns({ projectId: good.id, isRoot: true }) as never, {
      data: dataset.name,
      client,
      evaluators: [({ outputs }: { outputs?: Outputs }) => ({ key: "short", score: String(outputs?.answer ?? "").length <= 1 ? 1 : 0 })],
    });
    const rescored = await eventually(async () => {
      const project = (await client.readProject({ projectId: good.id, includeStats: true })) as any;
      return project.feedback_stats?.short?.n === 5 ? project : null;
    });
    assert.equal(rescored.feedback_stats.short.avg, 1);

    // Pairwise: the SDK's comparative evaluation prefers the perfect experiment's answer where they differ.
    const pairwise = await evaluate([perfect.experimentName, worse.experimentName], {
      client,
      evaluators: [
        ({ runs, referenceOutputs }: { runs: any[]; referenceOutputs?: Outputs }) => ({
          key: "preference",
          scores: Object.fromEntries(runs.map((r) => [r.id, r.outputs?.answer === referenceOutputs?.answer ? 1 : 0])),
        }),
      ],
    });
    const comparisons = await call(server, "GET", `/datasets/${dataset.id}/comparative`);
    assert.equal(comparisons.status, 200);
    const comparison = comparisons.body.find((c: { id: string }) => c.id === pairwise.comparativeExperiment?.id);
    assert.deepEqual(comparison.experiments_info.map((e: { id: string }) => e.id).sort(), [good.id, bad.id].sort());
    assert.equal(comparison.preferences.preference[good.id].wins, 2, "the perfect answer wins on d and e");
    assert.equal(comparison.preferences.preference[good.id].ties, 3);
    assert.equal(comparison.preferences.preference[bad.id].losses, 2);
  });
});
