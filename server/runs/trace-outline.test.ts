import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { escapeText } from "../db/storable";
import { withTestDatabases } from "../db/test-databases";
import { seedProject, seedRun, type SeededRun } from "./test-seed";
import { traceOutline } from "./trace-outline";
import { decodeTraceOutline } from "./trace-outline-wire";

const ws = randomUUID();
const base = Date.parse("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(base + ms);

withTestDatabases("trace outline", (open) => {
  let db: Sql;
  let root: SeededRun;
  let tool: SeededRun;

  before(async () => {
    db = (await open()).sql;
    const project = await seedProject(db, ws);
    root = await seedRun(db, ws, project, { name: "agent", start: at(0), latencyMs: 900 });
    tool = await seedRun(db, ws, project, {
      name: escapeText("search\u0000tool"),
      runType: "tool",
      parent: root,
      start: at(50),
      latencyMs: null,
    });
    await seedRun(db, ws, project, {
      name: "ChatOpenAI",
      runType: "llm",
      parent: { ...tool },
      start: at(60),
      latencyMs: 40,
      error: "x".repeat(1000),
    });
  });

  test("the outline gives parents as indexes, times from the trace's start and text as sent", async () => {
    const outline = decodeTraceOutline(await traceOutline(db, ws, root.traceId));
    assert.equal(outline.start_time, at(0).toISOString().replace("Z", "000Z"));
    assert.equal(outline.truncated, false);
    assert.deepEqual(
      outline.runs.map((r) => [r.name, r.parent, r.parent_run_id, r.start_ms, r.end_ms, r.status]),
      [
        ["agent", -1, null, 0, 900, "success"],
        ["search\u0000tool", 0, root.id, 50, null, "pending"],
        ["ChatOpenAI", 1, tool.id, 60, 100, "error"],
      ],
    );
    assert.equal(outline.runs[2].error?.length, 300, "the tree gets the start of a long error");
    assert.equal(outline.runs[2].latency, 0.04);
  });

  test("a trace past the limit comes back cut in tree order and says so; another workspace's trace is not found", async () => {
    const outline = decodeTraceOutline(await traceOutline(db, ws, root.traceId, 2));
    assert.deepEqual(
      outline.runs.map((r) => r.name),
      ["agent", "search\u0000tool"],
    );
    assert.equal(outline.truncated, true);
    await assert.rejects(traceOutline(db, randomUUID(), root.traceId), /not found/);
    await assert.rejects(traceOutline(db, ws, "not-a-uuid"), /not found/);
  });
});
