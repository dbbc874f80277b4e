// The Python code evaluators' sandbox: a child process (server/evaluators/sandbox.ts starts it) running
// CPython compiled to WebAssembly (Pyodide, its runtime and standard library read from the pyodide
// package, nothing fetched). A plain .mjs file so the built server and the tests run the same file.
//
// Layers, each enough on its own for what it covers:
// - Node's permission model (the process is started with --experimental-permission): it may read
//   only the pyodide package, write nowhere, start no process or thread — whatever Python reaches
//   through Pyodide's JavaScript bridge (its file systems, its module object) is refused there;
// - no network: fetch and its kin are removed before Pyodide loads, and Python's `js` module is an
//   empty frozen object (Pyodide has no sockets of its own);
// - the interpreter's WebAssembly memory may grow by the evaluator's allowance and no more (Python
//   raises MemoryError), and the parent kills the process at the evaluation's deadline and should
//   its resident memory pass the cap all the same.
// The jobs of one evaluator share the interpreter (a fresh namespace each); another evaluator gets
// another process.
import { constants as fsConstants } from "node:fs";

// Pyodide's file-system layer reads the open() flags through process.binding, which the permission
// model forbids: hand it the same constants, and nothing else.
Object.defineProperty(process, "binding", {
  value: (name) => {
    if (name === "constants") return { fs: fsConstants };
    throw new Error("process.binding is not available in the sandbox");
  },
});
for (const name of ["fetch", "Request", "Response", "WebSocket", "EventSource", "XMLHttpRequest"]) delete globalThis[name];

const [indexURL, allowanceMb] = process.argv.slice(2);
const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
const pyodide = await loadPyodide({
  indexURL,
  jsglobals: Object.freeze({}),
  stdout: () => {},
  stderr: () => {},
  env: { HOME: "/home/pyodide" },
});

// The heap as loaded, plus the allowance: a growth past it fails, which CPython reports as MemoryError.
const heapLimit = pyodide._module.HEAP8.buffer.byteLength + Number(allowanceMb) * 1024 * 1024;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > heapLimit) throw new RangeError("the evaluator's memory allowance is used up");
  return grow.call(this, pages);
};

// Runs one job: the evaluator's module in a fresh namespace, then perform_eval(run, example) (awaited
// when it is a coroutine); answers the result as JSON text. `print` is silent, as LangSmith's
// evaluators print as they go.
const runJob = pyodide.runPython(`
import inspect, json

async def run_job(code, data_json):
    namespace = {"__name__": "evaluator", "print": lambda *args, **kwargs: None}
    exec(compile(code, "evaluator.py", "exec"), namespace)
    fn = namespace.get("perform_eval") or namespace.get("performEval")
    if not callable(fn):
        raise NameError("define a function perform_eval(run, example)")
    data = json.loads(data_json)
    result = fn(data["run"], data["example"])
    if inspect.isawaitable(result):
        result = await result
    return json.dumps(result)

run_job
`);

process.on("message", async (job) => {
  let answer;
  try {
    const output = await runJob(job.code, JSON.stringify({ run: job.run, example: job.example }));
    answer =
      output.length > job.maxOutputChars
        ? { error: `the evaluator's answer is over ${job.maxOutputChars} characters` }
        : { value: JSON.parse(output) };
  } catch (error) {
    // A Python exception's message is its traceback: its last line says what was raised.
    const python = error?.type ? error.message.trim().split("\n").at(-1) : String(error?.message ?? error);
    answer = { error: /^MemoryError/.test(python) ? `out of memory: the evaluator used over ${allowanceMb} MB` : python };
  }
  process.send({ id: job.id, ...answer });
});
process.send({ ready: true });
