import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { resetEnv } from "../env";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { storeProject, storeRun } from "../feedback/test-runs";
import { startJobs, stopJobs } from "../jobs/queue";
import { createConnection } from "../models/connections";
import { startTestModelServer, type TestModelServer } from "../models/test-server";
import { evaluateRules } from "../rules/evaluate";
import { listBackfills, startBackfill } from "../rules/backfill";
import { ruleCreate } from "../rules/schema";
import { createRule, ruleLogs } from "../rules/service";
import { runEvaluations } from "./evaluate";
import type { EvaluationJob } from "./queues";
import { createEvaluator } from "./service";
import { evaluatorCreate } from "./schema";
// Registers the queues' handlers, as server/startup.ts does.
import "../rules/backfill";
import "./evaluate";

let model: TestModelServer;
before(async () => {
  process.env.ALLOW_PRIVATE_EGRESS = "1";
  process.env.EVALUATOR_RETRY_BASE_MS = "20";
  process.env.JOB_WORKERS = "1";
  resetEnv();
  model = await startTestModelServer();
});
after(async () => {
  await model.close();
  delete process.env.EVALUATOR_RETRY_BASE_MS;
  delete process.env.JOB_WORKERS;
  resetEnv();
});

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const SCHEMA = {
  type: "object",
  properties: {
    correctness: { type: "number", minimum: 0, maximum: 1, description: "1 if the answer is right" },
    tone: { type: "string", enum: ["friendly", "neutral", "rude"] },
    reasoning: { type: "string" },
  },
};

withTestDatabases("online evaluators", (open) => {
  let db: Sql;
  let ws: string;
  let project: string;
  let evaluatorId: string;

  test("setup: a workspace, a connection to the test model server, an evaluator; the job workers", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "evaluators")).id;
    project = await storeProject(db, ws);
    await createConnection(db, ws, { name: "local", provider: "openai", base_url: `${model.url}/v1`, default_model: "judge-1" });
    const created = await createEvaluator(
      db,
      ws,
      evaluatorCreate.parse({
        name: "correctness",
        llm_evaluator: {
          prompt: [
            ["system", "You grade answers."],
            ["user", "Question: {question}\nAnswer: {output}"],
          ],
          schema: SCHEMA,
          variable_mapping: { question: "input.question" },
        },
      }),
    );
    evaluatorId = created.evaluator.id!;
    assert.deepEqual(created.evaluator.feedback_keys, ["correctness", "tone"]);
    await startJobs(db, 1);
  });

  test("a rule's evaluator scores new runs: feedback from the model, linked to its traced call with tokens and cost", async () => {
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "judge", session_id: project, evaluator_id: evaluatorId }));
    const runs = await Promise.all(
      [1, 2, 3].map((i) => storeRun(db, ws, project, { inputs: { question: `q${i}` }, outputs: { answer: `a${i}` } })),
    );
    const before = model.requests.length;
    await evaluateRules(db, ws, runs);
    const feedback = await until(
      "feedback",
      () =>
        db.query<{ run_id: string; key: string; score: number | null; value: unknown; comment: string; source: any }>(sql`
          SELECT run_id, key, score, value, comment, feedback_source AS source FROM feedback WHERE run_id = ANY(${runs}::uuid[]) ORDER BY key`),
      (rows) => rows.length === 6,
    );
    assert.equal(model.requests.length - before, 3, "one model call per run");
    const sent = model.requests.at(-1)!.body as any;
    assert.match(JSON.stringify(sent.messages), /Question: q\d\\nAnswer: \{\\"answer\\":\\"a\d\\"\}/);
    assert.equal(sent.tool_choice.function.name, "submit_verdict");
    const correctness = feedback.filter((f) => f.key === "correctness");
    assert.deepEqual(
      correctness.map((f) => f.score),
      [1, 1, 1],
    );
    assert.deepEqual(
      feedback.filter((f) => f.key === "tone").map((f) => f.value),
      ["friendly", "friendly", "friendly"],
    );
    assert.equal(correctness[0].comment, "The answer is correct.");
    assert.equal(correctness[0].source.type, "model");
    const evaluatorRun = correctness[0].source.metadata.__run.run_id as string;
    const [traced] = await db.query<{ name: string; total_tokens: number; project: string; run_type: string }>(sql`
      SELECT r.name, r.total_tokens, p.name AS project, r.run_type FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.id = ${evaluatorRun}`);
    assert.equal(traced.project, "evaluators");
    assert.equal(traced.run_type, "llm");
    assert.ok(traced.total_tokens > 0, "the evaluator's call is traced with its tokens");
    const logs = await ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 });
    assert.equal(logs.length, 3);
    assert.ok(logs.every((l) => l.action === "evaluator" && l.outcome === "success"));
  });

  /** A first attempt at evaluating `runId` under `ruleId`, as the rules' claim enqueues it. */
  const jobOf = (ruleId: string, runId: string): EvaluationJob => ({
    workspace_id: ws,
    rule_id: ruleId,
    evaluator_id: evaluatorId,
    run_id: runId,
    backfill_id: null,
    attempt: 1,
    deferred: 0,
  });

  test("a job run again (its instance died after writing) neither calls the model nor writes feedback twice", async () => {
    const own = await storeProject(db, ws);
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "again", session_id: own, evaluator_id: evaluatorId }));
    const run = await storeRun(db, ws, own, { name: "again", inputs: { question: "q" }, outputs: { answer: "a" } });
    const job = jobOf(rule.id!, run);
    await runEvaluations(db, [{ id: "a", data: job }]);
    const calls = model.requests.length;
    await runEvaluations(db, [{ id: "a", data: job }]);
    assert.equal(model.requests.length, calls);
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback WHERE run_id = ${run}`);
    assert.equal(n, 2);
  });

  test("an instance that dies before a recorded evaluation's log line is written leaves neither: the job run again writes both", async () => {
    const own = await storeProject(db, ws);
    // Sampling 0: the rules' claim leaves the run alone, this test runs its evaluation itself.
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "dies", session_id: own, evaluator_id: evaluatorId, sampling_rate: 0 }),
    );
    const run = await storeRun(db, ws, own, { name: "dies", inputs: { question: "q" }, outputs: { answer: "a" } });
    const job = jobOf(rule.id!, run);
    // The log line's write fails, as it never happens when the process is killed right before it:
    // whatever of the evaluation was acknowledged before that point stays.
    await db.text(`CREATE FUNCTION test_dies_before_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'killed before the log line'; END $$`);
    await db.text(`CREATE TRIGGER test_dies_before_log BEFORE INSERT ON run_rule_logs FOR EACH ROW
      WHEN (NEW.run_id = '${run}') EXECUTE FUNCTION test_dies_before_log()`);
    try {
      await assert.rejects(runEvaluations(db, [{ id: "dies", data: job }]), /killed before the log line/);
    } finally {
      await db.text("DROP TRIGGER test_dies_before_log ON run_rule_logs");
      await db.text("DROP FUNCTION test_dies_before_log()");
    }
    const [{ n: recorded }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM evaluations WHERE run_id = ${run}`);
    assert.equal(recorded, 0, "no evaluation recorded without its log line (a job run again skips a recorded one)");
    await runEvaluations(db, [{ id: "dies", data: job }]);
    const logs = await ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 });
    assert.deepEqual(
      logs.map((l) => [l.run_id, l.outcome]),
      [[run, "success"]],
    );
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback WHERE run_id = ${run}`);
    assert.equal(n, 2);
  });

  test("a 429 is retried after its Retry-After; a 500 that persists is given up after 5 attempts, in the rule's logs", async () => {
    const own = await storeProject(db, ws);
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "flaky", session_id: own, evaluator_id: evaluatorId }));
    // The failures are meant for this test's runs: the rules' claim may meanwhile evaluate runs of earlier tests.
    const ok = await storeRun(db, ws, own, { name: "flaky", inputs: { question: "q-retried" }, outputs: { answer: "a" } });
    model.failNext(429, { retryAfter: 0, matching: "q-retried" });
    await evaluateRules(db, ws, [ok]);
    await until(
      "the retried evaluation",
      () => ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 }),
      (l) => l.length === 1,
    );
    const [log] = await ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 });
    assert.equal(log.outcome, "success");
    assert.equal(log.attempts, 2);

    const doomed = await storeRun(db, ws, own, { name: "flaky", inputs: { question: "q-doomed" }, outputs: { answer: "a" } });
    model.failNext(500, { times: 5, matching: "q-doomed" });
    await evaluateRules(db, ws, [doomed]);
    const logs = await until(
      "the give-up",
      () => ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 }),
      (l) => l.length === 2,
    );
    const failure = logs.find((l) => l.run_id === doomed)!;
    assert.equal(failure.outcome, "error");
    assert.equal(failure.attempts, 5);
    assert.equal(failure.status_code, 500);
    assert.match(failure.detail!, /gave up after 5 attempts: The model provider answered HTTP 500/);
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback WHERE run_id = ${doomed}`);
    assert.equal(n, 0);
  });

  test("a verdict that does not follow the schema is an error in the logs, and the call is still traced", async () => {
    const own = await storeProject(db, ws);
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "odd", session_id: own, evaluator_id: evaluatorId }));
    const run = await storeRun(db, ws, own, { name: "odd", inputs: { question: "q" }, outputs: { answer: "a" } });
    model.verdict = { correctness: "very", tone: "friendly" };
    try {
      await evaluateRules(db, ws, [run]);
      const [log] = await until(
        "the log",
        () => ruleLogs(db, ws, rule.id!, { offset: 0, limit: 10 }),
        (l) => l.length === 1,
      );
      assert.equal(log.outcome, "error");
      assert.match(log.detail!, /"correctness" must be a number; the model answered "very"/);
    } finally {
      model.verdict = null;
    }
  });

  test("a backfill evaluates a past time range's runs once, with progress", async () => {
    const past = await storeProject(db, ws);
    const old = Date.now() - 3 * 86_400_000;
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        storeRun(db, ws, past, {
          startTime: new Date(old + i * 60_000).toISOString(),
          inputs: { question: `q${i}` },
          outputs: { answer: "a" },
        }),
      ),
    );
    await storeRun(db, ws, past, { startTime: new Date(old - 86_400_000).toISOString(), inputs: {}, outputs: {} });
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "backfilled", session_id: past, evaluator_id: evaluatorId }));
    const started = await startBackfill(db, ws, rule.id!, { start: new Date(old - 1000), end: new Date() });
    assert.equal(started.runs_total, 12);
    const [done] = await until(
      "the backfill",
      () => listBackfills(db, ws, rule.id!),
      ([b]) => b.status === "completed",
    );
    assert.equal(done.runs_evaluated, 12);
    assert.equal(done.progress, 1);
    const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM feedback WHERE run_id = ANY(${runs}::uuid[])`);
    assert.equal(n, 24);
    const again = await startBackfill(db, ws, rule.id!, { start: new Date(old - 1000), end: new Date() });
    assert.equal(again.runs_total, 0, "runs evaluated already are not counted again");
  });

  test("an evaluator cannot judge the evaluators' own project (it would judge its own calls)", async () => {
    // Made by the evaluations above, which traced their calls there.
    const [{ id: own }] = await db.query<{ id: string }>(sql`SELECT id FROM projects WHERE workspace_id = ${ws} AND name = 'evaluators'`);
    await assert.rejects(
      createRule(db, ws, ruleCreate.parse({ display_name: "loop", session_id: own, evaluator_id: evaluatorId })),
      /cannot be attached to the "evaluators" project/,
    );
  });

  test("teardown", async () => {
    await stopJobs();
  });
});
