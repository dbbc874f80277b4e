// A node:test reporter that prints one line of counts at the end, beside the dot reporter's output.
export default async function* summary(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    if (event.data?.details?.type === "suite") continue;
    if (event.type === "test:fail") counts.failed += 1;
    if (event.type === "test:pass") counts[event.data.skip || event.data.todo ? "skipped" : "passed"] += 1;
  }
  yield `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
