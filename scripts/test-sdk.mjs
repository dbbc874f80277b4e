// `npm run test:sdk`: the langsmith SDKs' own integration suites (JS, and Python when python3 is here)
// against a fresh embedded instance of this build, through a logging proxy (scripts/sdk-proxy.mjs).
// Not part of `npm test`: it takes about ten minutes. Prints one figure per file and each failure;
// exits 1 when a test fails for a reason other than those in scripts/sdk-results.mjs.
// Everything it needs is in this repository: the proxy, the runners below (jest and pytest, one file at
// a time) and, in scripts/sdk-stubs, stand-ins for vcrpy and opentelemetry-semantic-conventions and a
// pytest plugin that imports langchain_core before any test freezes the clock (sdk_preload.py).
// Environment: SDK (a langsmith-sdk checkout; default: cloned from SDK_GIT into SDK_WORK/lssdk),
// SDK_WORK (default $TMPDIR/tracelight-sdk-tests), SDK_PY_CLIENT (the Python client under test: "source",
// the default, is the checkout's python/langsmith, the one its tests are written for; a pip requirement
// such as langsmith==0.14.0 installs that released client instead), SDK_VENV (default SDK_WORK/venv,
// SDK_WORK/venv-<requirement> for a released client),
// SDK_JS_FILES / SDK_PY_FILES (space-separated, to run fewer), SDK_PYTHON=off (JS only),
// SDK_JS=off (Python only), E2E_DATABASE_URL (run on PostgreSQL instead of the embedded database).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../e2e/harness/server.ts";
import { ensureBuild } from "./ensure-build.mjs";
import { startProxy } from "./sdk-proxy.mjs";
import { jestFigures, junitFigures, report } from "./sdk-results.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = process.env.SDK_WORK || path.join(tmpdir(), "tracelight-sdk-tests");
const sdk = process.env.SDK || path.join(work, "lssdk");
const pyClient = process.env.SDK_PY_CLIENT || "source";
// One environment per client: the released wheels bring httpx2, with which the source's v2 client fails.
const venv = process.env.SDK_VENV || path.join(work, pyClient === "source" ? "venv" : `venv-${pyClient.replace(/[^\w.-]+/g, "-")}`);
const out = path.join(work, `out-${new Date().toISOString().replace(/[:.]/g, "-")}`);

const JS_FILES =
  "batch_client run_trees client evaluate evaluate_attachments experiment_manager node_fetch lcls_handoff context threads traces public_runs runs_share";
const PY_FILES =
  "test_runs test_client test_async_client test_prompts test_prompts_async test_experiment_manager test_context_propagation " +
  "test_v2_datasets test_v2_public_runs test_v2_runs_share test_v2_threads test_v2_traces ../evaluation/test_evaluation";
const JS_DEPS =
  "jest@29 ts-jest@29 @jest/globals@29 typescript@5 dotenv p-queue@6.6.2 @langchain/core@^0.3.72 langchain@^0.3.29 " +
  "@langchain/openai@^0.6.17 @langchain/langgraph@^0.3.6 ai@7.0.36 @ai-sdk/openai@4.0.4 node-fetch@3 @types/jest@29 " +
  "@types/node openai@^6.18.0 @faker-js/faker@^8.4.1 zod@^4.3.6 @ai-sdk/provider@4.0.1";
// Without their dependencies: opentelemetry-sdk (scripts/sdk-stubs/opentelemetry/semconv stands in for
// opentelemetry-semantic-conventions) and langchain-core (the prompt suites use langchain_core.prompts, which
// runs without langchain-protocol); the index may lack both.
const PY_DEPS =
  "requests requests-toolbelt httpx pydantic orjson zstandard uuid-utils xxhash packaging websockets anyio distro sniffio " +
  "typing_extensions pytest pytest-asyncio pytest-timeout pytest-mock freezegun pyyaml wrapt yarl multidict six uvicorn " +
  "fastapi opentelemetry-api opentelemetry-proto opentelemetry-exporter-otlp-proto-common googleapis-common-protos protobuf";
const PY_NO_DEPS = "opentelemetry-sdk opentelemetry-exporter-otlp-proto-http langchain-core jsonpatch jsonpointer tenacity";
// The SDK's own jest config without its retry set-up (a failure shows the first time), one worker.
const JEST_CONFIG = `const base = require("./jest.config.cjs");
module.exports = { ...base, setupFilesAfterEnv: [], testPathIgnorePatterns: ["\\\\.vitesttest\\\\."], maxWorkers: 1 };
`;

const words = (text) => text.split(/\s+/).filter(Boolean);
const run = (command, args, options = {}) => spawnSync(command, args, { stdio: "inherit", ...options }).status === 0;
const fail = (message) => {
  console.error(`test:sdk: ${message}`);
  process.exit(1);
};

mkdirSync(out, { recursive: true });
prepareSdk();
const python = process.env.SDK_PYTHON !== "off" && preparePython();
ensureBuild();

const started = Date.now();
const server = await startServer({ databaseUrl: process.env.E2E_DATABASE_URL || null });
const proxy = await startProxy({ upstream: server.url, log: path.join(out, "proxy.log") });
// The API under /api/v1 of a host not spelt "localhost" or "127.0.0.1" (127.1 is the same address): the JS
// client then takes the server itself for the web UI its share links point at, as for any deployment,
// instead of a UI on localhost:3000 (docs/sending-traces.md, "Links the SDK builds").
const endpoint = `http://127.1:${proxy.port}/api/v1`;
const env = { ...process.env, LANGSMITH_ENDPOINT: endpoint, LANGSMITH_API_KEY: server.apiKey, LANGSMITH_TRACING: "true" };
Object.assign(env, { LANGCHAIN_ENDPOINT: endpoint, LANGCHAIN_API_KEY: server.apiKey, LANGCHAIN_TRACING_V2: "true" });
// The tests that call a model provider fail here for want of a key, not with someone's own key.
for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) delete env[name];
let unexpected = 0;
try {
  if (process.env.SDK_JS !== "off") unexpected += await suite("JS", words(process.env.SDK_JS_FILES || JS_FILES), jestFile);
  if (python) unexpected += await suite("Python", words(process.env.SDK_PY_FILES || PY_FILES), pytestFile);
} finally {
  await proxy.close();
  await server.stop();
}
console.log(
  `\ntest:sdk: ${((Date.now() - started) / 60000).toFixed(1)} min; results, logs and the proxy's log (failing requests with bodies) in ${out}`,
);
if (unexpected) fail(`${unexpected} failure(s) not among the known ones (scripts/sdk-results.mjs)`);

/** Runs the files one at a time, then reports one figure per file. */
async function suite(title, files, runFile) {
  const t0 = Date.now();
  console.log(`\n== ${title}: ${files.length} files against ${server.url} (proxy ${endpoint})`);
  const figures = [];
  for (const file of files) figures.push(await runFile(file));
  return report(`${title} (${((Date.now() - t0) / 60000).toFixed(1)} min)`, figures);
}

/** One JS file (under js/src/tests) through jest: results in res-<name>.json, its output in jest-<name>.log. */
async function jestFile(name) {
  const file = `${name}.int.test.ts`;
  writeFileSync(path.join(sdk, "js/jest.peer.cjs"), JEST_CONFIG);
  const jest = path.join(sdk, "node_modules/jest/bin/jest.js");
  const result = path.join(out, `res-${name}.json`);
  const args = [jest, "--config", "jest.peer.cjs", "--testTimeout", "90000", "--json", `--outputFile=${result}`, `src/tests/${file}`];
  const nodeOptions = [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" ");
  await runLogged(
    process.execPath,
    args,
    { cwd: path.join(sdk, "js"), env: { ...env, NODE_OPTIONS: nodeOptions } },
    `jest-${name}.log`,
    25,
  );
  return jestFigures(result, file);
}

/**
 * One Python file (under python/tests/integration_tests) through pytest: results in pyres-<name>.xml,
 * its output in pytest-<name>.log. With the released client the checkout's python/ is appended to the
 * import path, not prepended, so `import langsmith` finds the installed wheel and `tests` the checkout's.
 */
async function pytestFile(name) {
  const file = `${name}.py`;
  const base = path.basename(name);
  const result = path.join(out, `pyres-${base}.xml`);
  const source = pyClient === "source";
  const stubs = [path.join(repo, "scripts/sdk-stubs"), ...(source ? [path.join(sdk, "python")] : [])];
  const args = [
    "-p",
    "sdk_preload",
    "-p",
    "no:cacheprovider",
    `--import-mode=${source ? "prepend" : "append"}`,
    "-o",
    "timeout=150",
    "-q",
    "-rA",
  ];
  args.push(`--junitxml=${result}`, `tests/integration_tests/${file}`);
  const pythonEnv = {
    ...env,
    PYTHONPATH: [...stubs, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
    // The suites' "slow" tests are slow on the hosted service only (a minute in all here).
    PYTEST_ADDOPTS: process.env.PYTEST_ADDOPTS ?? "--runslow",
  };
  delete pythonEnv.NODE_OPTIONS;
  await runLogged(path.join(venv, "bin/pytest"), args, { cwd: path.join(sdk, "python"), env: pythonEnv }, `pytest-${base}.log`, 30);
  return junitFigures(result, file);
}

/** Runs a command with its output in OUT/<log>, killed (with its children) after `minutes`. */
function runLogged(command, args, options, log, minutes) {
  const fd = openSync(path.join(out, log), "w");
  const child = spawn(command, args, { ...options, stdio: ["ignore", fd, fd], detached: true });
  const timer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), minutes * 60_000);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      console.log(`   ${signal ? `killed (${signal})` : `exit ${code}`}  ${log}`);
      resolve();
    }),
  );
}

/** A sparse checkout of the SDK repository with the JS suites' test dependencies, unless SDK names one. */
function prepareSdk() {
  if (!existsSync(path.join(sdk, "js/src/tests"))) {
    if (process.env.SDK) fail(`SDK=${sdk} is not a langsmith-sdk checkout (no js/src/tests).`);
    const source = process.env.SDK_GIT || "https://github.com/langchain-ai/langsmith-sdk.git";
    console.log(`== cloning ${source} into ${sdk}`);
    mkdirSync(work, { recursive: true });
    const git = (...args) => run("git", ["-C", sdk, ...args]);
    if (
      !run("git", ["clone", "-q", "--no-checkout", source, sdk]) ||
      !git("sparse-checkout", "set", "--no-cone", "/js/", "/python/", "!/python/tests/integration_tests/cassettes/") ||
      !git("checkout", "-q", process.env.SDK_REF || "HEAD")
    )
      fail(`could not clone the SDK repository from ${source}; set SDK_GIT to a reachable git copy or SDK to a checkout.`);
  }
  if (existsSync(path.join(sdk, "node_modules/jest"))) return;
  console.log(`== installing the JS suites' test dependencies in ${sdk}`);
  writeFileSync(path.join(sdk, "package.json"), '{"name":"sdk-tests","private":true}\n');
  if (!run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", ...words(JS_DEPS)], { cwd: sdk }))
    fail("npm could not install the JS suites' test dependencies (see above).");
}

/** A virtual environment with the Python suites' dependencies; false (with the reason) when there can be none. */
function preparePython() {
  if (spawnSync("python3", ["--version"]).status !== 0) {
    console.log("== Python suites skipped: no python3 on this machine");
    return false;
  }
  const pip = path.join(venv, "bin/pip");
  const installed = path.join(venv, "tracelight-sdk-deps.txt");
  const wanted = [PY_DEPS, PY_NO_DEPS, pyClient].join("\n");
  if (existsSync(installed) && readFileSync(installed, "utf8") === wanted) return true;
  if (!existsSync(pip) && !run("python3", ["-m", "venv", venv])) {
    console.log("== Python suites skipped: python3 -m venv failed (Debian: apt-get install python3-venv)");
    return false;
  }
  // --retries 0: an index that does not resolve is given up at once (pip then tries the others it is configured with).
  const quick = ["install", "-q", "--retries", "0", "--timeout", "15"];
  const client = pyClient === "source" ? [] : [pyClient];
  if (!run(pip, [...quick, ...client, ...words(PY_DEPS)]) || !run(pip, [...quick, "--no-deps", ...words(PY_NO_DEPS)])) {
    console.log("== Python suites skipped: pip could not install their dependencies (is the package index reachable?)");
    return false;
  }
  writeFileSync(installed, wanted);
  return true;
}
