// `npm run test:sdk`: the langsmith SDKs' own integration suites (JS, and Python when python3 is here)
// against a fresh embedded instance of this build, through the logging proxy of ../shared/sdk-tests.
// Not part of `npm test`: it takes about half an hour. Prints one figure per file and each failure;
// exits 1 when a test fails for a reason other than those in scripts/sdk-results.mjs.
// Environment: SDK (a langsmith-sdk checkout; default: cloned from SDK_GIT into SDK_WORK/lssdk),
// SDK_WORK (default $TMPDIR/tracelight-sdk-tests), SDK_VENV (default SDK_WORK/venv),
// SDK_JS_FILES / SDK_PY_FILES (space-separated, to run fewer), SDK_PYTHON=off (JS only),
// SDK_JS=off (Python only), E2E_DATABASE_URL (run on PostgreSQL instead of the embedded database).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startServer } from "../e2e/harness/server.ts";
import { ensureBuild } from "./ensure-build.mjs";
import { jestFigures, junitFigures, report } from "./sdk-results.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const shared = path.resolve(repo, process.env.SDK_TESTS_DIR || "../shared/sdk-tests");
const work = process.env.SDK_WORK || path.join(tmpdir(), "tracelight-sdk-tests");
const sdk = process.env.SDK || path.join(work, "lssdk");
const venv = process.env.SDK_VENV || path.join(work, "venv");
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
// Without their dependencies: opentelemetry-sdk (../shared/sdk-tests/otel-semconv-stub stands in for
// opentelemetry-semantic-conventions) and langchain-core (the prompt suites use langchain_core.prompts, which
// runs without langchain-protocol); the index may lack both.
const PY_DEPS =
  "requests requests-toolbelt httpx pydantic orjson zstandard uuid-utils xxhash packaging websockets anyio distro sniffio " +
  "typing_extensions pytest pytest-asyncio pytest-timeout pytest-mock freezegun pyyaml wrapt yarl multidict six uvicorn " +
  "fastapi opentelemetry-api opentelemetry-proto opentelemetry-exporter-otlp-proto-common googleapis-common-protos protobuf";
const PY_NO_DEPS = "opentelemetry-sdk opentelemetry-exporter-otlp-proto-http langchain-core jsonpatch jsonpointer tenacity";

const words = (text) => text.split(/\s+/).filter(Boolean);
const run = (command, args, options = {}) => spawnSync(command, args, { stdio: "inherit", ...options }).status === 0;
const fail = (message) => {
  console.error(`test:sdk: ${message}`);
  process.exit(1);
};

if (!existsSync(path.join(shared, "run-js.sh")))
  fail(
    `the shared runner scripts are missing: expected ${shared} (run-js.sh, run-py.sh, proxy.mjs) beside this repository, as CI has them; set SDK_TESTS_DIR to use another folder.`,
  );
mkdirSync(out, { recursive: true });
prepareSdk();
const python = process.env.SDK_PYTHON !== "off" && preparePython();
ensureBuild();

const started = Date.now();
const server = await startServer({ databaseUrl: process.env.E2E_DATABASE_URL || null });
const proxyPort = await freePort();
const proxy = spawn(process.execPath, [path.join(shared, "proxy.mjs")], {
  stdio: "inherit",
  env: { ...process.env, PROXY_PORT: String(proxyPort), UPSTREAM_PORT: new URL(server.url).port, PROXY_LOG: path.join(out, "proxy.log") },
});
// The API under /api/v1 of a host not spelt "localhost" or "127.0.0.1" (127.1 is the same address): the JS
// client then takes the server itself for the web UI its share links point at, as for any deployment,
// instead of a UI on localhost:3000 (docs/sending-traces.md, "Links the SDK builds").
const endpoint = `http://127.1:${proxyPort}/api/v1`;
const env = { ...process.env, SDK: sdk, OUT: out, LANGSMITH_ENDPOINT: endpoint, LANGSMITH_API_KEY: server.apiKey };
let unexpected = 0;
try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (process.env.SDK_JS !== "off")
    unexpected += suite("JS", "run-js.sh", words(process.env.SDK_JS_FILES || JS_FILES), ".int.test.ts", jestFigures, "res-", ".json");
  if (python)
    unexpected += suite("Python", "run-py.sh", words(process.env.SDK_PY_FILES || PY_FILES), ".py", junitFigures, "pyres-", ".xml", {
      PY: path.join(venv, "bin/python"),
      // The suites' "slow" tests are slow on the hosted service only (a minute in all here).
      PYTEST_ADDOPTS: process.env.PYTEST_ADDOPTS ?? "--runslow",
      // vcrpy, which the SDK's conftest imports, may be missing from the index: scripts/sdk-stubs/vcr stands in.
      PYTHONPATH: [path.join(repo, "scripts/sdk-stubs"), process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
    });
} finally {
  proxy.kill();
  await server.stop();
}
console.log(
  `\ntest:sdk: ${((Date.now() - started) / 60000).toFixed(1)} min; results, logs and the proxy's log (failing requests with bodies) in ${out}`,
);
if (unexpected) fail(`${unexpected} failure(s) not among the known ones (scripts/sdk-results.mjs)`);

/** Runs the files one at a time through the shared runner, then reports one figure per file. */
function suite(title, script, files, suffix, figures, prefix, extension, extraEnv = {}) {
  const t0 = Date.now();
  for (const file of files) mkdirSync(path.dirname(path.join(out, `${prefix}${file}`)), { recursive: true });
  for (const file of files) mkdirSync(path.dirname(path.join(out, `pytest-${file}`)), { recursive: true });
  console.log(`\n== ${title}: ${files.length} files against ${server.url} (proxy ${env.LANGSMITH_ENDPOINT})`);
  run("bash", [path.join(shared, script), ...files.map((f) => f + suffix)], { env: { ...env, ...extraEnv } });
  const minutes = ((Date.now() - t0) / 60000).toFixed(1);
  return report(
    `${title} (${minutes} min)`,
    files.map((f) => figures(path.join(out, `${prefix}${f}${extension}`), f + suffix)),
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
  if (existsSync(installed) && readFileSync(installed, "utf8") === PY_DEPS + PY_NO_DEPS) return true;
  if (!existsSync(pip) && !run("python3", ["-m", "venv", venv])) {
    console.log("== Python suites skipped: python3 -m venv failed (Debian: apt-get install python3-venv)");
    return false;
  }
  // --retries 0: an index that does not resolve is given up at once (pip then tries the others it is configured with).
  const quick = ["install", "-q", "--retries", "0", "--timeout", "15"];
  if (!run(pip, [...quick, ...words(PY_DEPS)]) || !run(pip, [...quick, "--no-deps", ...words(PY_NO_DEPS)])) {
    console.log("== Python suites skipped: pip could not install their dependencies (is the package index reachable?)");
    return false;
  }
  writeFileSync(installed, PY_DEPS + PY_NO_DEPS);
  return true;
}
