// A node:test reporter that prints one line of counts at the end, beside the dot reporter's output.
// When a test file fails on its own (its process exited badly, before or between its tests), it
// also prints how the process ended and the tail of what it wrote to stderr, which the dot reporter
// leaves out, and the runner's diagnostics (an error after a test ended, say).
const STDERR_TAIL = 4000;
const COUNTS = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;

export default async function* summary(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const stderr = new Map();
  const crashed = [];
  const diagnostics = [];
  for await (const event of source) {
    if (event.type === "test:stderr") {
      const tail = (stderr.get(event.data.file) ?? "") + event.data.message;
      stderr.set(event.data.file, tail.slice(-STDERR_TAIL));
      continue;
    }
    if (event.type === "test:diagnostic" && !COUNTS.test(event.data.message)) diagnostics.push(event.data.message);
    if (event.data?.details?.type === "suite") continue;
    if (event.type === "test:fail") counts.failed += 1;
    if (event.type === "test:pass") counts[event.data.skip || event.data.todo ? "skipped" : "passed"] += 1;
    if (event.type === "test:fail" && event.data.nesting === 0 && event.data.name === event.data.file) crashed.push(event.data);
  }
  yield `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
  for (const { file, details } of crashed) {
    const { exitCode, signal } = details.error ?? {};
    const ended = signal ? `signal ${signal}` : `exit code ${exitCode}`;
    yield `\n== ${file}: its process ended with ${ended}; its stderr ends:\n${stderr.get(file) ?? "(nothing)"}\n==\n`;
  }
  if (crashed.length && diagnostics.length) yield `\n== diagnostics:\n${diagnostics.join("\n")}\n==\n`;
}
