// The code evaluators' sandbox, run in a worker thread (server/evaluators/sandbox.ts starts it). A
// plain .mjs file so the built server and the tests load the same file outside any bundle.
//
// Each evaluation runs in a fresh QuickJS runtime compiled to WebAssembly: it has no network, no
// file system, no modules and no timers — only the run and example handed in as JSON. The runtime's
// memory is capped (setMemoryLimit) and an interrupt handler stops it at its deadline; the parent
// also terminates this thread if it stops answering.
import { parentPort, workerData } from "node:worker_threads";
import { transformSync } from "esbuild";
import { newQuickJSWASMModule, shouldInterruptAfterDeadline } from "quickjs-emscripten";

const { jobs, cpuMs, memoryBytes, maxOutputChars } = workerData;

// `module`/`exports` so `export function performEval` (compiled to CommonJS) is found too; `require`
// (and so `import`, which compiles to it) names what is missing instead of a bare ReferenceError; a
// silent `console`, since evaluators written for LangSmith log as they go.
const PRELUDE = `
var module = { exports: {} }; var exports = module.exports;
var console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
function require(name) { throw new Error("modules are not available to code evaluators (require/import of '" + name + "')"); }
`;

const CALL = `
(() => {
  const m = module.exports;
  const fn = typeof performEval === "function" ? performEval : typeof perform_eval === "function" ? perform_eval
    : typeof m === "function" ? m : m && (m.performEval || m.perform_eval || m.default);
  if (typeof fn !== "function") throw new Error("define a function performEval(run, example) (or perform_eval)");
  const input = JSON.parse(__input);
  Promise.resolve().then(() => fn(input.run, input.example)).then(
    (v) => { globalThis.__output = JSON.stringify(v === undefined ? null : v); },
    (e) => { globalThis.__failure = e instanceof Error ? e.name + ": " + e.message : "threw " + String(e); });
})();
`;

/** TypeScript's types stripped and ES module syntax turned into CommonJS, compiled once per source. */
const compiled = new Map();
function compile(code, language) {
  const key = `${language}\0${code}`;
  if (!compiled.has(key)) {
    try {
      const out = transformSync(code, { loader: language === "typescript" ? "ts" : "js", format: "cjs", target: "es2020" });
      compiled.set(key, { code: out.code });
    } catch (error) {
      const first = error.errors?.[0];
      const where = first?.location ? ` (line ${first.location.line}, column ${first.location.column + 1})` : "";
      compiled.set(key, { error: `SyntaxError: ${first?.text ?? error.message}${where}` });
    }
  }
  return compiled.get(key);
}

/** QuickJS's error (a dumped error object, or a message) for a limit hit, said in the evaluator's terms. */
function describe(error) {
  const message =
    typeof error === "string"
      ? error
      : error && typeof error === "object"
        ? `${error.name ?? "Error"}: ${error.message ?? ""}`
        : String(error);
  if (/interrupted/i.test(message)) return `timed out: stopped after ${cpuMs} ms`;
  if (/out of memory/i.test(message) || error === null) return `out of memory: the evaluator used over ${memoryBytes / 1048576} MB`;
  return message;
}

let QuickJS = await newQuickJSWASMModule();

/** Runs one evaluation's scripts in the context; answers `{value}` or `{error}`. */
function runIn(vm, runtime, job, code) {
  const input = vm.newString(JSON.stringify({ run: job.run, example: job.example }));
  vm.setProp(vm.global, "__input", input);
  input.dispose();
  for (const [script, name] of [
    [PRELUDE, "prelude.js"],
    [code, "evaluator.js"],
    [CALL, "call.js"],
  ]) {
    const result = vm.evalCode(script, name);
    if (result.error) {
      const error = describe(vm.dump(result.error));
      result.error.dispose();
      return { error };
    }
    result.value.dispose();
  }
  const pending = runtime.executePendingJobs();
  if (pending.error) {
    const error = describe(pending.error.context.dump(pending.error));
    pending.error.dispose();
    return { error };
  }
  const failure = vm.getProp(vm.global, "__failure").consume((h) => vm.dump(h));
  if (failure !== undefined) return { error: describe(failure) };
  const output = vm.getProp(vm.global, "__output").consume((h) => vm.dump(h));
  if (output === undefined) return { error: "performEval's promise never settled" };
  if (output.length > maxOutputChars) return { error: `the evaluator's answer is over ${maxOutputChars} characters` };
  return { value: JSON.parse(output) };
}

function evaluate(job) {
  const source = compile(job.code, job.language);
  if (source.error) return { error: source.error };
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(512 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + cpuMs));
  const vm = runtime.newContext();
  try {
    return runIn(vm, runtime, job, source.code);
  } catch (error) {
    return { error: describe(error) };
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped mid-allocation can fail its own teardown (emscripten prints "Aborted(…)").
    }
  }
}

for (const job of jobs) {
  const answer = evaluate(job);
  // A runtime stopped by a limit may leave the WebAssembly heap inconsistent: the next job gets a fresh module.
  if (answer.error) QuickJS = await newQuickJSWASMModule();
  parentPort.postMessage({ id: job.id, ...answer });
}
