import { test } from "node:test";
import assert from "node:assert/strict";
import { codeFeedback } from "./code";
import { runPythonInSandbox } from "./python";
import { runInSandbox } from "./sandbox";
import { codeEvaluatorTestEnv } from "./test-env";

// The sandboxes themselves, without a database; the evaluators stored and run by rules: code.test.ts.
codeEvaluatorTestEnv();

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
