/**
 * Online evaluators against a real local model server, through the langsmith 0.12 client: an
 * evaluator from a prompt commit scores a project's new runs (feedback from the model, linked to
 * the evaluator's traced call), a dataset's evaluator scores each new experiment with the example's
 * reference, 429s are retried and a permanent failure is logged, the platform evaluators surface.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { chatPromptManifest } from "../server/generate/manifest";
import { startTestModelServer, type TestModelServer } from "../server/models/test-server";
import { call, collect, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const SCHEMA = {
  title: "grade",
  type: "object",
  properties: {
    correct: { type: "boolean", description: "Is the answer right?" },
    helpfulness: { type: "number", minimum: 0, maximum: 5 },
    comment: { type: "string" },
  },
};

describe("online evaluators", () => {
  let server: RunningServer;
  let model: TestModelServer;
  let client: Client;
  /** The client's resource API (`onlineEvaluators` lives only there). */
  let sdk: Langsmith;
  let evaluatorId: string;

  before(async () => {
    model = await startTestModelServer();
    server = await startServer({ env: { ALLOW_PRIVATE_EGRESS: "1", EVALUATOR_RETRY_BASE_MS: "50" } });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
    const connection = await call(server, "POST", "/model-connections", {
      name: "judge",
      provider: "openai",
      base_url: `${model.url}/v1`,
      api_key: "sk-judge",
      default_model: "gpt-4o-mini",
    });
    assert.equal(connection.status, 201, JSON.stringify(connection.body));
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  test("the platform surface: create from a prompt commit, list, retrieve, update; bad definitions are 400s naming the field", async () => {
    const { manifest } = chatPromptManifest(
      [
        { role: "system", content: "Grade the answer." },
        { role: "user", content: "Question: {question}\nAnswer: {answer}" },
      ],
      SCHEMA,
    );
    assert.equal((await call(server, "POST", "/repos/", { repo_handle: "grader", is_public: false })).status, 200);
    const commit = await call(server, "POST", "/commits/-/grader", { manifest });
    assert.equal(commit.status, 200, JSON.stringify(commit.body));
    const created = await sdk.onlineEvaluators.create({
      name: "grader",
      type: "llm",
      llm_evaluator: { prompt_repo_handle: "grader", variable_mapping: { question: "input.question", answer: "output.answer" } },
    });
    evaluatorId = created.evaluator!.id!;
    assert.deepEqual(created.evaluator!.feedback_keys, ["correct", "helpfulness"]);
    assert.equal(created.evaluator!.llm_evaluator!.prompt_repo_handle, "grader");
    assert.equal(created.evaluator!.llm_evaluator!.commit_hash_or_tag, "latest");

    const listed = await collect(sdk.onlineEvaluators.list({ name_contains: "GRAD" }));
    assert.deepEqual(
      listed.map((e) => e.id),
      [evaluatorId],
    );
    assert.equal((await collect(sdk.onlineEvaluators.list({ feedback_key: "nope" }))).length, 0);
    const renamed = await sdk.onlineEvaluators.update(evaluatorId, { name: "grader v2" });
    assert.equal(renamed.evaluator!.name, "grader v2");
    assert.equal((await sdk.onlineEvaluators.retrieve(evaluatorId)).name, "grader v2");

    const noSchema = await call(server, "POST", "/api/v1/platform/evaluators", {
      name: "x",
      llm_evaluator: { prompt: [["user", "{input}"]] },
    });
    assert.equal(noSchema.status, 400);
    assert.match(noSchema.body.detail, /output schema/);
    const badKey = await call(server, "POST", "/api/v1/platform/evaluators", {
      name: "x",
      llm_evaluator: { prompt: [["user", "{input}"]], schema: { type: "object", properties: { label: { type: "string" } } } },
    });
    assert.equal(badKey.status, 400);
    assert.match(badKey.body.detail, /schema\.properties\.label:? must be a number, integer, boolean, or string with an enum/);
    assert.equal((await call(server, "GET", `/api/v1/platform/evaluators/${randomUUID()}`)).status, 404);
  });

  test("a rule on a project: each new run traced by the SDK gets the model's feedback, linked to the evaluator's own traced call", async () => {
    const projectName = `judged-${randomUUID().slice(0, 8)}`;
    const project = await client.createProject({ projectName });
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "grade all",
      session_id: project.id,
      evaluator_id: evaluatorId,
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    assert.equal(rule.body.evaluator_name, "grader v2");

    const ids = [randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) {
      await client.createRun({ id, name: "qa", run_type: "chain", project_name: projectName, inputs: { question: `q${i}` } });
      await client.updateRun(id, { outputs: { answer: `a${i}` }, end_time: Date.now() });
    }
    await client.awaitPendingTraceBatches();
    const feedback = await eventually(async () => {
      const found = await collect(client.listFeedback({ runIds: ids }));
      return found.length === 4 ? found : null;
    }, 30_000);
    assert.deepEqual(feedback.map((f) => `${f.key}=${f.score}`).sort(), ["correct=1", "correct=1", "helpfulness=5", "helpfulness=5"]);
    const sample = feedback[0];
    assert.equal(sample.feedback_source?.type, "model");
    assert.equal(sample.comment, "The answer is correct.");
    const evaluatorRunId = (sample.feedback_source?.metadata as any).__run.run_id as string;
    const evaluatorRun = await client.readRun(evaluatorRunId);
    assert.equal(evaluatorRun.run_type, "llm");
    assert.ok((evaluatorRun.total_tokens ?? 0) > 0, "the evaluator's call has its tokens");
    assert.ok(Number((evaluatorRun as { total_cost?: unknown }).total_cost) > 0, "and its cost");
    const evaluators = await client.readProject({ projectName: "evaluators" });
    assert.equal(evaluatorRun.session_id, evaluators.id);

    const sent = model.requests.filter((r) => JSON.stringify(r.body).includes("Question: q0"));
    assert.equal(sent.length, 1, "one call for the run");
    assert.equal(sent[0].headers.authorization, "Bearer sk-judge");
    assert.match(JSON.stringify(sent[0].body.messages), /Question: q0\\nAnswer: a0/);

    const rules = await sdk.evaluators.list({ evaluator_id: evaluatorId });
    assert.deepEqual(
      rules.map((r) => r.id),
      [rule.body.id],
    );
    const spend = await sdk.onlineEvaluators.spend({
      period_start: new Date(Date.now() - 86_400_000).toISOString(),
      evaluator_id: evaluatorId,
    });
    assert.equal(spend.groups?.[0]?.total_trace_count, 2);
    assert.ok((spend.groups?.[0]?.total_spend_usd ?? 0) > 0);
  });

  test("a 429 is retried; a provider that keeps failing is given up on, with the error in the rule's logs", async () => {
    const projectName = `flaky-${randomUUID().slice(0, 8)}`;
    const project = await client.createProject({ projectName });
    const rule = await call(server, "POST", "/runs/rules", { display_name: "flaky", session_id: project.id, evaluator_id: evaluatorId });
    const post = async () => {
      const id = randomUUID();
      await client.createRun({
        id,
        name: "qa",
        run_type: "chain",
        project_name: projectName,
        inputs: { question: "q" },
        outputs: { answer: "a" },
        end_time: Date.now(),
      });
      await client.awaitPendingTraceBatches();
      return id;
    };
    model.failNext(429, { retryAfter: 0 });
    const retried = await post();
    const logs = async (n: number) =>
      eventually(async () => {
        const found = await call(server, "GET", `/runs/rules/${rule.body.id}/logs`);
        return found.body.length === n ? found.body : null;
      }, 30_000);
    const [ok] = await logs(1);
    assert.deepEqual([ok.run_id, ok.outcome, ok.attempts], [retried, "success", 2]);

    model.failNext(503, { times: 5 });
    const doomed = await post();
    const failure = (await logs(2)).find((l: { run_id: string }) => l.run_id === doomed);
    assert.equal(failure.outcome, "error");
    assert.equal(failure.status_code, 503);
    assert.match(failure.detail, /gave up after 5 attempts: The model provider answered HTTP 503/);
  });

  test("a rule on a dataset scores each new experiment's runs, the prompt reading the example's reference outputs", async () => {
    const dataset = await client.createDataset(`judged-${randomUUID().slice(0, 8)}`);
    await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ question: "2+2" }, { question: "3+3" }],
      outputs: [{ answer: "4" }, { answer: "6" }],
    });
    const created = await call(server, "POST", "/runs/rules", {
      display_name: "reference check",
      dataset_id: dataset.id,
      evaluators: [
        {
          structured: {
            prompt: [["user", "Expected {{reference.answer}}, got {{output.answer}} for {{input.question}}."]],
            template_format: "mustache",
            schema: { type: "object", properties: { matches: { type: "string", enum: ["yes", "no"] } } },
          },
        },
      ],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.dataset_id, dataset.id);
    assert.equal(created.body.session_id, null);
    assert.equal((await sdk.evaluators.list({ type: "dataset", dataset_id: dataset.id })).length, 1);

    const sums: Record<string, string> = { "2+2": "4", "3+3": "6" };
    const results = await evaluate((inputs: Record<string, any>) => ({ answer: sums[inputs.question] }), {
      data: dataset.name,
      client,
      experimentPrefix: "judged",
    });
    await client.awaitPendingTraceBatches();
    const runIds = results.results.map((r) => r.run.id);
    const feedback = await eventually(async () => {
      const found = await collect(client.listFeedback({ runIds, feedbackKeys: ["matches"] }));
      return found.length === 2 ? found : null;
    }, 30_000);
    assert.deepEqual(
      feedback.map((f) => f.value),
      ["yes", "yes"],
    );
    assert.ok(model.requests.some((r) => JSON.stringify(r.body.messages).includes("Expected 4, got 4 for 2+2.")));
  });

  test("deleting an evaluator that rules use needs delete_run_rules; bulk delete reports each one", async () => {
    const refused = await call(server, "DELETE", `/api/v1/platform/evaluators/${evaluatorId}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.detail, /used by 2 rule\(s\)/);
    const spare = await sdk.onlineEvaluators.create({
      name: "spare",
      llm_evaluator: { prompt_repo_handle: "grader", commit_hash_or_tag: "latest" },
    });
    const bulk = await sdk.onlineEvaluators.bulkDelete({ evaluator_ids: [spare.evaluator!.id!, evaluatorId] });
    assert.deepEqual(bulk.succeeded, [spare.evaluator!.id]);
    assert.equal(bulk.failed?.[0]?.id, evaluatorId);
    await sdk.onlineEvaluators.delete(evaluatorId, { delete_run_rules: true });
    assert.equal((await sdk.evaluators.list({ evaluator_id: evaluatorId })).length, 0);
  });
});
