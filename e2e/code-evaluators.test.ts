/**
 * Code evaluators through the langsmith 0.12 client (issue 36): `onlineEvaluators.create` with
 * `type: "code"` stores one; a rule on a dataset runs it (in the server's QuickJS sandbox) over each
 * new experiment's runs with the example's outputs, its answer becoming feedback; a Python one runs
 * in the Pyodide sandbox; a runaway one is
 * stopped with an error in the rule's logs while the server keeps answering.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { call, collect, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const EXACT = `
function performEval(run, example) {
  const same = run.outputs.answer === example.outputs.answer;
  return { key: "exact", score: same, comment: same ? "matches the reference" : "differs" };
}`;

describe("code evaluators", () => {
  let server: RunningServer;
  let client: Client;
  let sdk: Langsmith;

  before(async () => {
    server = await startServer({ env: { CODE_EVALUATOR_TIMEOUT_MS: "1000" } });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
  });
  after(async () => {
    await server?.stop();
  });

  test("created through the client, run by a dataset's rule over an experiment: feedback from the code", async () => {
    const created = await sdk.onlineEvaluators.create({
      name: "exact",
      type: "code",
      code_evaluator: { code: EXACT, language: "javascript" },
    });
    const evaluator = created.evaluator!;
    assert.equal(evaluator.type, "code");
    assert.equal(evaluator.code_evaluator!.code, EXACT);
    assert.equal(evaluator.code_evaluator!.language, "javascript");
    assert.equal((await sdk.onlineEvaluators.retrieve(evaluator.id!)).code_evaluator!.language, "javascript");
    assert.deepEqual(
      (await collect(sdk.onlineEvaluators.list({ type: "code" }))).map((e) => e.id),
      [evaluator.id],
    );
    const python = await sdk.onlineEvaluators.create({
      name: "py",
      type: "code",
      code_evaluator: { code: "def perform_eval(run, example):\n    return 1\n" },
    });
    assert.equal(python.evaluator!.code_evaluator!.language, "python", "the client's default language");
    const bad = await call(server, "POST", "/api/v1/platform/evaluators", {
      name: "x",
      type: "code",
      code_evaluator: { code: "1", language: "ruby" },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /code_evaluator\.language/);

    const dataset = await client.createDataset(`code-${randomUUID().slice(0, 8)}`);
    await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ q: "2+2" }, { q: "3+3" }],
      outputs: [{ answer: "4" }, { answer: "6" }],
    });
    const rule = await call(server, "POST", "/runs/rules", { display_name: "exact", dataset_id: dataset.id, evaluator_id: evaluator.id });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));

    const answers: Record<string, string> = { "2+2": "4", "3+3": "7" };
    const results = await evaluate((inputs: Record<string, any>) => ({ answer: answers[inputs.q] }), {
      data: dataset.name,
      client,
      experimentPrefix: "code",
    });
    await client.awaitPendingTraceBatches();
    const runIds = results.results.map((r) => r.run.id);
    const feedback = await eventually(async () => {
      const found = await collect(client.listFeedback({ runIds, feedbackKeys: ["exact"] }));
      return found.length === 2 ? found : null;
    }, 30_000);
    assert.deepEqual(feedback.map((f) => `${f.score}:${f.comment}`).sort(), ["0:differs", "1:matches the reference"]);
  });

  test("a Python evaluator (the client's default language) runs in the built server's Pyodide sandbox", async () => {
    const project = await client.createProject({ projectName: `py-${randomUUID().slice(0, 8)}` });
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "python",
      session_id: project.id,
      code_evaluators: [
        {
          code: "import json\ndef perform_eval(run, example):\n    return {'key': 'keys', 'score': len(run['outputs']), 'comment': json.dumps(sorted(run['outputs']))}\n",
        },
      ],
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const id = randomUUID();
    await client.createRun({
      id,
      name: "qa",
      run_type: "chain",
      project_name: project.name,
      inputs: {},
      outputs: { a: 1, b: 2 },
      end_time: Date.now(),
    });
    await client.awaitPendingTraceBatches();
    const [feedback] = await eventually(async () => {
      const found = await collect(client.listFeedback({ runIds: [id], feedbackKeys: ["keys"] }));
      return found.length === 1 ? found : null;
    }, 60_000);
    assert.equal(feedback.score, 2);
    assert.equal(feedback.comment, '["a", "b"]');
  });

  test("a runaway evaluator is stopped with a log line while the server keeps answering", async () => {
    const project = await client.createProject({ projectName: `loop-${randomUUID().slice(0, 8)}` });
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "loop",
      session_id: project.id,
      code_evaluators: [{ code: "function performEval() { for (;;) {} }", language: "javascript" }],
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const id = randomUUID();
    await client.createRun({
      id,
      name: "qa",
      run_type: "chain",
      project_name: project.name,
      inputs: {},
      outputs: { a: 1 },
      end_time: Date.now(),
    });
    await client.awaitPendingTraceBatches();
    let slowest = 0;
    const logs = await eventually(async () => {
      const started = Date.now();
      assert.equal((await call(server, "GET", "/info")).status, 200);
      slowest = Math.max(slowest, Date.now() - started);
      const found = await call(server, "GET", `/runs/rules/${rule.body.id}/logs`);
      return Array.isArray(found.body) && found.body.length > 0 ? found.body : null;
    }, 30_000);
    assert.equal(logs[0].outcome, "error");
    assert.equal(logs[0].detail, "code evaluator failed: timed out: stopped after 1000 ms");
    assert.ok(slowest < 900, `the server answered within ${slowest} ms while the evaluator looped`);
  });
});
