import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import { AppError } from "../core/errors";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { storeProject, storeRun } from "../feedback/test-runs";
import { startJobs, stopJobs } from "../jobs/queue";
import { evaluateRules } from "../rules/evaluate";
import { listBackfills, startBackfill } from "../rules/backfill";
import { ruleCreate } from "../rules/schema";
import { createRule, ruleLogs } from "../rules/service";
import { evaluatorCreate, evaluatorUpdate } from "./schema";
import { createEvaluator, listEvaluators, readEvaluator, updateEvaluator } from "./service";
import { codeEvaluatorTestEnv } from "./test-env";
// Registers the queues' handlers, as server/startup.ts does.
import "../rules/backfill";
import "./evaluate";

codeEvaluatorTestEnv();

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const status = (code: number) => (error: unknown) => error instanceof AppError && error.status === code;

withTestDatabases("code evaluators", (open) => {
  let db: Sql;
  let ws: string;
  let project: string;
  let exact: string;

  const make = (name: string, code: string, language?: string) =>
    createEvaluator(db, ws, evaluatorCreate.parse({ name, type: "code", code_evaluator: { code, ...(language ? { language } : {}) } }));

  test("setup and CRUD: stored with their source and language, answered in the client's shape", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "code evaluators")).id;
    project = await storeProject(db, ws);
    const created = (
      await make(
        "exact",
        "function performEval(run) { return { score: run.outputs.answer === 'a1' ? 1 : 0, comment: 'compared' }; }",
        "javascript",
      )
    ).evaluator;
    exact = created.id;
    assert.equal(created.type, "code");
    assert.equal(created.llm_evaluator, undefined);
    assert.deepEqual(created.code_evaluator, {
      evaluator_id: exact,
      code: "function performEval(run) { return { score: run.outputs.answer === 'a1' ? 1 : 0, comment: 'compared' }; }",
      language: "javascript",
      evaluator_build_status: "READY",
    });
    const python = (await make("py", "def perform_eval(run, example):\n    return {'score': 1}\n")).evaluator;
    assert.equal(python.code_evaluator!.language, "python", "Python unless said, as the client's default");
    const renamed = await updateEvaluator(
      db,
      ws,
      python.id,
      evaluatorUpdate.parse({ name: "py2", code_evaluator: { code: "def perform_eval(run, example):\n    return 1\n" } }),
    );
    assert.equal(renamed.evaluator.name, "py2");
    assert.equal(renamed.evaluator.code_evaluator!.language, "python", "what is not sent is kept");
    await assert.rejects(updateEvaluator(db, ws, python.id, evaluatorUpdate.parse({ llm_evaluator: { model: "x" } })), status(400));
    assert.deepEqual((await listEvaluators(db, ws, { offset: 0, limit: 10, type: "code" })).evaluators.map((e) => e.name).sort(), [
      "exact",
      "py2",
    ]);
    assert.equal((await listEvaluators(db, ws, { offset: 0, limit: 10, type: "llm" })).total, 0);
    assert.equal((await readEvaluator(db, ws, exact)).code_evaluator!.language, "javascript");
    assert.throws(
      () => evaluatorCreate.parse({ name: "x", type: "code", code_evaluator: { code: "1", language: "ruby" } }),
      /must be one of/,
    );
    assert.throws(() => evaluatorCreate.parse({ name: "x", type: "code" }), /code_evaluator/);
    await startJobs(db, 1);
  });

  const logsOf = (ruleId: string, count: number) =>
    until(
      "the rule's logs",
      () => ruleLogs(db, ws, ruleId, { offset: 0, limit: 100 }),
      (l) => l.length >= count,
    );

  test("a rule's code evaluator scores new runs: feedback as an LLM judge's, and a log line per run", async () => {
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "exact", session_id: project, evaluator_id: exact }));
    const runs = [
      await storeRun(db, ws, project, { outputs: { answer: "a1" } }),
      await storeRun(db, ws, project, { outputs: { answer: "b" } }),
    ];
    await evaluateRules(db, ws, runs);
    const logs = await logsOf(rule.id!, 2);
    assert.deepEqual(logs.map((l) => l.outcome).sort(), ["success", "success"]);
    assert.deepEqual(logs.map((l) => l.detail).sort(), ["exact=0", "exact=1"]);
    const feedback = await db.query<{ run_id: string; key: string; score: number; comment: string; source: any }>(sql`
      SELECT run_id, key, score, comment, feedback_source AS source FROM feedback WHERE run_id = ANY(${runs}::uuid[]) ORDER BY score DESC`);
    assert.deepEqual(
      feedback.map((f) => [f.run_id, f.key, f.score, f.comment]),
      [
        [runs[0], "exact", 1, "compared"],
        [runs[1], "exact", 0, "compared"],
      ],
    );
    assert.deepEqual(feedback[0].source.metadata, { rule_id: rule.id, evaluator_id: exact });
  });

  test("a runaway evaluator is stopped with an error line in the rule's logs while the database keeps answering; Python sees only its own file system", async () => {
    const p = await storeProject(db, ws);
    const loop = (await make("loop", "function performEval() { while (true) {} }", "javascript")).evaluator.id;
    const py = (await make("py-run", "import os\ndef perform_eval(run, example):\n    return {'files': os.listdir('/')}\n")).evaluator.id;
    const loopRule = await createRule(db, ws, ruleCreate.parse({ display_name: "loop", session_id: p, evaluator_id: loop }));
    const pyRule = await createRule(db, ws, ruleCreate.parse({ display_name: "py", session_id: p, evaluator_id: py }));
    const run = await storeRun(db, ws, p, { outputs: { answer: "x" } });
    await evaluateRules(db, ws, [run]);
    let answered = 0;
    const [log] = await until(
      "the loop's log",
      async () => {
        await db.query(sql`SELECT 1`);
        answered++;
        return ruleLogs(db, ws, loopRule.id!, { offset: 0, limit: 10 });
      },
      (l) => l.length === 1,
    );
    assert.equal(log.outcome, "error");
    assert.equal(log.detail, "code evaluator failed: timed out: stopped after 1000 ms");
    assert.ok(answered >= 5, `the database answered ${answered} queries meanwhile`);
    const [pyLog] = await logsOf(pyRule.id!, 1);
    assert.equal(pyLog.outcome, "success");
    const feedback = await db.query<{ key: string; value: string }>(
      sql`SELECT key, value #>> '{}' AS value FROM feedback WHERE run_id = ${run}`,
    );
    assert.deepEqual(
      feedback.map((f) => f.key),
      ["files"],
    );
    const files = JSON.parse(feedback[0].value) as string[];
    assert.ok(!files.includes("etc") && !files.includes("work"), `the interpreter's own root, not the host's: ${files}`);
  });

  test("a rule's inline code evaluator (code_evaluators: [{code, language}]) is stored as an evaluator of its own and runs", async () => {
    const p = await storeProject(db, ws);
    const code =
      "const performEval = (run: { outputs: { answer: string } }) => ({ results: [{ key: 'long', score: run.outputs.answer.length > 3 }] });";
    const rule = await createRule(
      db,
      ws,
      ruleCreate.parse({ display_name: "inline", session_id: p, code_evaluators: [{ code, language: "typescript" }] }),
    );
    assert.equal((await readEvaluator(db, ws, rule.evaluator_id!)).code_evaluator!.code, code);
    assert.throws(
      () => ruleCreate.parse({ display_name: "x", session_id: p, evaluator_id: exact, code_evaluators: [{ code }] }),
      /give one of/,
    );
    const run = await storeRun(db, ws, p, { outputs: { answer: "lengthy" } });
    await evaluateRules(db, ws, [run]);
    const [log] = await logsOf(rule.id!, 1);
    assert.equal(log.outcome, "success");
    assert.equal(log.detail, "long=true");
  });

  test("a backfill runs the code evaluator over a past range's runs", async () => {
    const past = await storeProject(db, ws);
    const old = Date.now() - 2 * 86_400_000;
    const runs = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        storeRun(db, ws, past, { startTime: new Date(old + i * 60_000).toISOString(), outputs: { answer: i ? "b" : "a1" } }),
      ),
    );
    const rule = await createRule(db, ws, ruleCreate.parse({ display_name: "backfilled", session_id: past, evaluator_id: exact }));
    await startBackfill(db, ws, rule.id!, { start: new Date(old - 1000), end: new Date() });
    const [done] = await until(
      "the backfill",
      () => listBackfills(db, ws, rule.id!),
      ([b]) => b.status === "completed",
    );
    assert.equal(done.runs_evaluated, 5);
    const rows = await db.query<{ score: number }>(
      sql`SELECT score FROM feedback WHERE run_id = ANY(${runs}::uuid[]) AND key = 'exact' ORDER BY score`,
    );
    assert.deepEqual(
      rows.map((r) => Number(r.score)),
      [0, 0, 0, 0, 1],
    );
  });

  test("teardown", async () => {
    await stopJobs();
  });
});
