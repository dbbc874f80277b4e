import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { withTestDatabases } from "../db/test-databases";
import { ingestRuns } from "../ingest/service";
import { runSelection, selectionFromWire } from "./schema";
import { sortedRuns } from "./sorted";

const stamp = (ms: number, id: string) =>
  `${new Date(ms).toISOString().replace(/[-:.]/g, "").slice(0, 15)}${String(ms % 1000).padStart(3, "0")}000Z${id}`;

/** A chain root with LLM children of the given total tokens: the root shows their sum. */
function trace(name: string, start: number, childTokens: number[]) {
  const rootId = randomUUID();
  const rootOrder = stamp(start, rootId);
  const at = (ms: number) => new Date(ms).toISOString();
  return [
    { id: rootId, trace_id: rootId, dotted_order: rootOrder, name, run_type: "chain", session_name: "sorted", start_time: at(start) },
    ...childTokens.map((tokens, i) => {
      const id = randomUUID();
      return {
        id,
        trace_id: rootId,
        parent_run_id: rootId,
        dotted_order: `${rootOrder}.${stamp(start + 1 + i, id)}`,
        name: `${name}-llm-${tokens}`,
        run_type: "llm",
        session_name: "sorted",
        start_time: at(start + 1 + i),
        end_time: at(start + 5 + i),
        outputs: { usage_metadata: { input_tokens: tokens - 10, output_tokens: 10, total_tokens: tokens } },
      };
    }),
  ].map((run) => ({ ...run, inputs: {} }));
}

withTestDatabases("the runs table sorted by a measure", (open) => {
  test("by tokens: a root run by its trace's total, the others by their own, both directions", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const start = Date.parse("2026-05-01T10:00:00Z");
    await ingestRuns(db, ws, { post: [...trace("a", start, [100, 60]), ...trace("b", start + 1000, [70, 40])] });
    const names = async (dir: "asc" | "desc") =>
      (await sortedRuns(db, ws, selectionFromWire(runSelection.parse({})), { by: "total_tokens", dir }, 0, 10, ["name"])).runs.map(
        (r) => r.name,
      );
    assert.deepEqual(await names("desc"), ["a", "b", "a-llm-100", "b-llm-70", "a-llm-60", "b-llm-40"]);
    assert.deepEqual(await names("asc"), ["b-llm-40", "a-llm-60", "b-llm-70", "a-llm-100", "b", "a"]);
    const page = await sortedRuns(
      db,
      ws,
      selectionFromWire(runSelection.parse({ is_root: true })),
      { by: "total_tokens", dir: "desc" },
      1,
      1,
      ["name"],
    );
    assert.deepEqual(
      page.runs.map((r) => r.name),
      ["b"],
    );
    assert.equal(page.next, null);
  });
});
