import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { resetEnv } from "../env";
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
import { codeFeedback } from "./code";
import { runPythonInSandbox } from "./python";
import { runInSandbox } from "./sandbox";
import { evaluatorCreate, evaluatorUpdate } from "./schema";
import { createEvaluator, listEvaluators, readEvaluator, updateEvaluator } from "./service";
// Registers the queues' handlers, as server/startup.ts does.
import "../rules/backfill";
import "./evaluate";

before(() => {
  process.env.CODE_EVALUATOR_TIMEOUT_MS = "1000";
  process.env.JOB_WORKERS = "1";
  resetEnv();
});
after(() => {
  delete process.env.CODE_EVALUATOR_TIMEOUT_MS;
  delete process.env.JOB_WORKERS;
  resetEnv();
});

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const js = (id: string, code: string, language: "javascript" | "typescript" = "javascript") => ({
  id,
  code,
  language,
  run: { outputs: { answer: 42 } },
  example: { outputs: { answer: 42 } },
});

test("codeFeedback: LangSmith's answer shapes become feedback like an LLM judge's", () => {
  assert.deepEqual(codeFeedback("exact", { score: 1, comment: "same" }), [{ key: "exact", score: 1, value: null, comment: "same" }]);
  assert.deepEqual(codeFeedback("exact", { key: "k", value: "good" }), [{ key: "k", score: null, value: "good", comment: null }]);
  assert.deepEqual(
    codeFeedback("exact", {
      results: [
        { key: "a", score: true },
        { key: "b", score: 0.5 },
      ],
    }),
    [
      { key: "a", score: 1, value: true, comment: null },
      { key: "b", score: 0.5, value: null, comment: null },
    ],
  );
  assert.deepEqual(codeFeedback("exact", { exact_match: true, length: 3, label: "short", comment: "why" }), [
    { key: "exact_match", score: 1, value: true, comment: "why" },
    { key: "length", score: 3, value: null, comment: "why" },
    { key: "label", score: null, value: "short", comment: "why" },
  ]);
  assert.deepEqual(codeFeedback("exact", 0.25), [{ key: "exact", score: 0.25, value: null, comment: null }]);
  assert.throws(() => codeFeedback("exact", "yes"), /must return an object/);
  assert.throws(() => codeFeedback("exact", { score: "high" }), /score must be a number or a boolean/);
});

test("the sandbox runs JavaScript and TypeScript, and stops loops, huge allocations, network and module access with a clear reason while the server's event loop keeps running", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const started = Date.now();
  try {
    const answers = await runInSandbox([
      js("ok", "function performEval(run, example) { return { score: run.outputs.answer === example.outputs.answer ? 1 : 0 }; }"),
      js(
        "ts",
        "export async function performEval(run: { outputs: { answer: number } }): Promise<{ key: string; score: number }> { return { key: 'n', score: run.outputs.answer }; }",
        "typescript",
      ),
      js(
        "snake",
        "function perform_eval(run, example) { console.log(run); return { seen: typeof process === 'undefined' && typeof globalThis.fetch === 'undefined' }; }",
      ),
      js("loop", "function performEval() { for (;;) {} }"),
      js("gigabyte", "function performEval() { return new ArrayBuffer(1024 * 1024 * 1024).byteLength; }"),
      js("strings", "function performEval() { const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length); }"),
      js("fetch", "async function performEval() { return await fetch('http://127.0.0.1:1/'); }"),
      js("require", "const fs = require('fs'); function performEval() { return fs.readFileSync('/etc/passwd', 'utf8'); }"),
      js("import", "import { readFileSync } from 'node:fs'; export function performEval() { return readFileSync('/etc/passwd'); }"),
      js("throws", "function performEval() { throw new TypeError('no answer here'); }"),
      js("syntax", "function performEval( { return 1 }"),
      js("missing", "function evaluate() { return 1 }"),
      js("after", "function performEval() { return { score: 0.5 }; }"),
    ]);
    const error = (id: string) => {
      const a = answers.get(id)!;
      assert.ok("error" in a, `${id} should fail: ${JSON.stringify(a)}`);
      return a.error;
    };
    assert.deepEqual(answers.get("ok"), { value: { score: 1 } });
    assert.deepEqual(answers.get("ts"), { value: { key: "n", score: 42 } });
    assert.deepEqual(answers.get("snake"), { value: { seen: true } });
    assert.match(error("loop"), /^timed out: stopped after 1000 ms$/);
    assert.match(error("gigabyte"), /^out of memory: the evaluator used over 64 MB$/);
    assert.match(error("strings"), /out of memory|timed out/);
    assert.match(error("fetch"), /ReferenceError: 'fetch' is not defined/);
    assert.match(error("require"), /modules are not available to code evaluators \(require\/import of 'fs'\)/);
    assert.match(error("import"), /modules are not available to code evaluators \(require\/import of 'node:fs'\)/);
    assert.equal(error("throws"), "TypeError: no answer here");
    assert.match(error("syntax"), /^SyntaxError: .* \(line 1, column \d+\)$/);
    assert.match(error("missing"), /define a function performEval\(run, example\)/);
    assert.deepEqual(answers.get("after"), { value: { score: 0.5 } }, "a job after the failures still runs");
  } finally {
    clearInterval(timer);
  }
  const elapsed = Date.now() - started;
  // The timer fired all along: the loops ran on another thread, never on this event loop.
  assert.ok(ticks >= (elapsed / 20) * 0.5, `${ticks} ticks in ${elapsed} ms`);
});

test("the Python sandbox runs perform_eval in CPython (WebAssembly) in its own process, and stops loops, huge allocations, host files, network and processes with a clear reason", async () => {
  const py = (id: string, code: string, evaluatorId = "e1") => ({
    id,
    evaluatorId,
    code,
    run: { outputs: { answer: 42 } },
    example: { outputs: { answer: 42 } },
  });
  const answers = await runPythonInSandbox([
    py(
      "ok",
      "def perform_eval(run, example):\n    print('logged')\n    return {'score': 1 if run['outputs']['answer'] == example['outputs']['answer'] else 0}",
    ),
    py("async", "async def perform_eval(run, example):\n    return {'key': 'n', 'score': run['outputs']['answer']}"),
    py("loop", "def perform_eval(run, example):\n    while True: pass"),
    py("gigabyte", "def perform_eval(run, example):\n    return len(bytearray(1024 ** 3))"),
    py("host-file", "def perform_eval(run, example):\n    return open('/etc/passwd').read()"),
    py(
      "mount",
      "import pyodide_js\ndef perform_eval(run, example):\n    pyodide_js.FS.mkdir('/host')\n    pyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, {'root': '/'}, '/host')\n    import os\n    return os.listdir('/host')",
    ),
    py(
      "fetch",
      "from pyodide.http import pyfetch\nasync def perform_eval(run, example):\n    return (await pyfetch('http://127.0.0.1:5432/')).status",
    ),
    py("js", "import js\ndef perform_eval(run, example):\n    return js.process.env.HOME"),
    py("subprocess", "import subprocess\ndef perform_eval(run, example):\n    return subprocess.run(['ls']).returncode"),
    py(
      "socket",
      "import socket\ndef perform_eval(run, example):\n    socket.create_connection(('127.0.0.1', 5432), timeout=1)\n    return 1",
    ),
    py("throws", "def perform_eval(run, example):\n    raise ValueError('no answer here')"),
    py("missing", "def evaluate(run, example):\n    return 1"),
    py("after", "def perform_eval(run, example):\n    return {'score': 0.5}"),
    py("other-evaluator", "def perform_eval(run, example):\n    return {'score': 0.25}", "e2"),
  ]);
  const error = (id: string) => {
    const a = answers.get(id)!;
    assert.ok("error" in a, `${id} should fail: ${JSON.stringify(a)}`);
    return a.error;
  };
  assert.deepEqual(answers.get("ok"), { value: { score: 1 } });
  assert.deepEqual(answers.get("async"), { value: { key: "n", score: 42 } });
  assert.equal(error("loop"), "timed out: stopped after 1000 ms");
  assert.equal(error("gigabyte"), "out of memory: the evaluator used over 64 MB");
  assert.match(error("host-file"), /^FileNotFoundError: .*'\/etc\/passwd'/);
  error("mount");
  assert.match(error("fetch"), /NameError|not defined/);
  assert.equal(error("js"), "AttributeError: process");
  assert.match(error("subprocess"), /does not support processes/);
  assert.match(error("socket"), /^OSError/);
  assert.equal(error("throws"), "ValueError: no answer here");
  assert.match(error("missing"), /define a function perform_eval\(run, example\)/);
  assert.deepEqual(answers.get("after"), { value: { score: 0.5 } }, "a job after the failures still runs");
  assert.deepEqual(answers.get("other-evaluator"), { value: { score: 0.25 } });
});

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
