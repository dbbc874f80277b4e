// Reads the SDK suites' result files (jest --json, pytest --junitxml) into one figure per file, and
// tells the failures this instance cannot pass (they need a hosted service, a model provider's key or a
// package the index lacks) from the ones it should.
import { existsSync, readFileSync } from "node:fs";

/** Tests that fail here for a reason outside the server, by a pattern of their name, with that reason. */
export const KNOWN_FAILURES = [
  [/child runs that take a while to resolve/, "calls OpenAI (needs OPENAI_API_KEY)"],
  [/clonePublicDataset|list shared examples|^test_aevaluate$/, "reads a dataset shared on the hosted service (smith.langchain.com)"],
  [/^test_otel_trace_attributes$/, "the OTLP exporter cannot load: the index lacks opentelemetry-exporter-otlp-common 0.66b0"],
  [
    /^test_pull_prompt_include_model$/,
    "builds the prompt's ChatOpenAI: needs langchain_openai (whose langchain_core chat models import langchain-protocol, not in the index) and an OpenAI key",
  ],
  [
    /^test_convert_to_(openai|anthropic)_format$/,
    "client-side conversion, no server call: needs langchain_openai (langchain-protocol, not in the index) / langchain_anthropic (not in the index)",
  ],
  [
    /^test_update_run_attachments$/,
    "cannot pass against any server: the client's Run model makes every time UTC-aware (naive ones too) and the test compares it with a naive datetime, never equal in Python",
  ],
  [
    /^test_fallback_json_serialization$|^test_slow_run_read_multipart$/,
    "client-side, with a released client only (SDK_PY_CLIENT): the test probes the repository source's internals (surrogate escaping, langsmith.client.rqtb_multipart)",
  ],
];

export const knownReason = (name) => KNOWN_FAILURES.find(([pattern]) => pattern.test(name))?.[1];

/** { file, passed, failed, skipped, failures: [{ name, message }] } from a jest --json file. */
export function jestFigures(file, label) {
  const out = { file: label, passed: 0, failed: 0, skipped: 0, failures: [] };
  if (!existsSync(file)) return { ...out, failed: 1, failures: [{ name: "(suite)", message: "no result file: the run did not finish" }] };
  const result = JSON.parse(readFileSync(file, "utf8"));
  for (const suite of result.testResults) {
    if (suite.message && suite.assertionResults.length === 0) {
      out.failed++;
      out.failures.push({ name: "(suite)", message: firstLine(suite.message) });
    }
    for (const test of suite.assertionResults) {
      if (test.status === "passed") out.passed++;
      else if (test.status === "failed") {
        out.failed++;
        out.failures.push({ name: test.fullName, message: firstLine(test.failureMessages[0] ?? "") });
      } else out.skipped++;
    }
  }
  return out;
}

/** The same from a pytest --junitxml file (errors count as failures). */
export function junitFigures(file, label) {
  const out = { file: label, passed: 0, failed: 0, skipped: 0, failures: [] };
  if (!existsSync(file)) return { ...out, failed: 1, failures: [{ name: "(suite)", message: "no result file: the run did not finish" }] };
  const xml = readFileSync(file, "utf8");
  for (const [, attributes, body = ""] of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = unescape(/\bname="([^"]*)"/.exec(attributes)?.[1] ?? "?");
    const outcome = /<(failure|error|skipped)\b([^>]*)/.exec(body);
    if (!outcome) out.passed++;
    else if (outcome[1] === "skipped") out.skipped++;
    else {
      out.failed++;
      out.failures.push({ name, message: firstLine(unescape(/message="([^"]*)"/.exec(outcome[2])?.[1] ?? "")) });
    }
  }
  return out;
}

/** Prints the table and each failure, known ones with their reason; returns the unexpected failures' count. */
export function report(title, figures) {
  let unexpected = 0;
  console.log(`\n${title}`);
  console.log(`  ${"file".padEnd(34)} pass fail skip`);
  for (const f of figures) console.log(`  ${f.file.padEnd(34)} ${pad(f.passed)} ${pad(f.failed)} ${pad(f.skipped)}`);
  for (const f of figures)
    for (const failure of f.failures) {
      const reason = knownReason(failure.name);
      if (!reason) unexpected++;
      console.log(
        `  ${reason ? "known " : "FAILED"} ${f.file} :: ${failure.name.slice(0, 120)}\n         ${reason ?? failure.message.slice(0, 300)}`,
      );
    }
  return unexpected;
}

const pad = (n) => String(n).padStart(4);
const firstLine = (text) =>
  text
    .split("\n    at ")[0]
    .replace(/\s*\n\s*/g, " | ")
    .slice(0, 400);
const unescape = (text) =>
  text.replace(
    /&(lt|gt|quot|apos|amp|#10|#13);/g,
    (_, e) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&", "#10": "\n", "#13": "" })[e],
  );
