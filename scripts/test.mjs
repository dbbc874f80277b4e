// `npm test`: every test, in order of cost. Typecheck, lint and format check, unit and storage tests (on PGlite, and on
// PostgreSQL too when TEST_DATABASE_URL is set), the production build, then the end-to-end suites
// against the built server with the real SDKs (embedded database, then PostgreSQL when
// E2E_DATABASE_URL or TEST_DATABASE_URL is set). Stops at the first failing step.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const only = process.argv.slice(2);

function files(dir, pattern) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) continue;
    if (statSync(full).isDirectory()) out.push(...files(full, pattern));
    else if (pattern.test(name)) out.push(full);
  }
  return out.sort();
}

function step(name, command, args, env = {}) {
  if (only.length && !only.includes(name)) return;
  const started = Date.now();
  console.log(`\n== ${name}: ${command} ${args.length > 6 ? `${args.slice(0, 6).join(" ")} … (${args.length} args)` : args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.status !== 0) {
    console.error(`\n== ${name} FAILED after ${seconds}s (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`== ${name} passed in ${seconds}s`);
}

const node = process.execPath;
const nodeTest = (concurrency, testFiles) => [
  "--import",
  "tsx",
  "--test",
  "--test-reporter=dot",
  "--test-reporter-destination=stdout",
  "--test-reporter=./scripts/summary-reporter.mjs",
  "--test-reporter-destination=stdout",
  `--test-concurrency=${concurrency}`,
  ...testFiles,
];

step("typecheck", node, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.json"]);
step("lint", node, ["node_modules/eslint/bin/eslint.js", "."]);
step("format", node, ["node_modules/prettier/bin/prettier.cjs", "--check", "."]);
step("unit", node, nodeTest(2, [...files("server", /\.test\.ts$/), ...files("app", /\.test\.ts$/)]));
step("build", node, ["node_modules/next/dist/bin/next", "build"]);
const e2e = files("e2e", /\.test\.ts$/);
step("e2e", node, nodeTest(2, e2e), { E2E_DATABASE_URL: "" });
const pgUrl = process.env.E2E_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (pgUrl)
  step(
    "e2e-postgres",
    node,
    nodeTest(
      2,
      e2e.filter((f) => !f.includes(`${path.sep}ui${path.sep}`)),
    ),
    { E2E_DATABASE_URL: pgUrl },
  );
console.log("\nAll tests passed.");
