import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { runGroupBody, runSelection, selectionFromWire, threadQueryFromWire } from "./schema";
import { runStats } from "./stats";
import { groupThreads } from "./threads";
import { seedFeedback, seedProject, seedRun } from "./test-seed";
import { near } from "./rollups/test-near";

const ws = randomUUID();
const base = Date.parse("2026-02-01T10:00:00Z");
const at = (minutes: number) => new Date(base + minutes * 60_000);

withTestDatabases("runs stats and threads", (open) => {
  let db: Sql;
  let project: string;

  before(async () => {
    db = (await open()).sql;
    project = await seedProject(db, ws);
    // Thread t1: two traces; thread t2: one trace with an error; one run outside any thread.
    const a = await seedRun(db, ws, project, {
      name: "turn1",
      start: at(0),
      latencyMs: 1000,
      threadId: "t1",
      inputs: { q: "hi" },
      outputs: { a: "hello" },
    });
    await seedRun(db, ws, project, {
      name: "llm",
      runType: "llm",
      parent: a,
      start: at(0.1),
      latencyMs: 500,
      promptTokens: 10,
      completionTokens: 5,
      promptCost: 0.01,
      completionCost: 0.02,
      firstTokenMs: 200,
    });
    const b = await seedRun(db, ws, project, {
      name: "turn2",
      start: at(1),
      latencyMs: 3000,
      threadId: "t1",
      inputs: { q: "bye" },
      outputs: { a: "ciao" },
    });
    await seedRun(db, ws, project, {
      name: "llm",
      runType: "llm",
      parent: b,
      start: at(1.1),
      latencyMs: 700,
      promptTokens: 30,
      completionTokens: 10,
      promptCost: 0.03,
      completionCost: 0.04,
    });
    await seedRun(db, ws, project, { name: "turn1", start: at(2), latencyMs: 2000, threadId: "t2", error: "boom" });
    await seedRun(db, ws, project, { name: "lonely", start: at(3), latencyMs: null });
    await seedFeedback(db, ws, { ...a, projectId: project }, "correctness", 1);
    await seedFeedback(db, ws, { ...b, projectId: project }, "correctness", 0);
    await seedFeedback(db, ws, { ...b, projectId: project }, "vibe", null, "good");
    {
      // Another workspace's run (the database keeps it in that workspace's own project).
      const other = randomUUID();
      await seedRun(db, other, await seedProject(db, other), { name: "foreign", start: at(4), promptTokens: 1000 });
    }
  });

  test("stats over a project", async () => {
    const stats = await runStats(db, ws, selectionFromWire(runSelection.parse({ session: [project] })));
    assert.equal(stats.run_count, 6);
    assert.equal(stats.error_rate, 1 / 6);
    assert.equal(stats.prompt_tokens, 40);
    assert.equal(stats.completion_tokens, 15);
    assert.equal(stats.total_tokens, 55);
    assert.ok(Math.abs(stats.total_cost! - 0.1) < 1e-9);
    near(stats.latency_p50, 1);
    near(stats.first_token_p50, 0.2);
    assert.equal(stats.streaming_rate, 0.5);
    assert.equal(stats.last_run_start_time, "2026-02-01T10:03:00.000000Z");
    assert.deepEqual(stats.feedback_stats.correctness, { n: 2, avg: 0.5, stdev: 0.5, values: {} });
    assert.deepEqual(stats.feedback_stats.vibe, { n: 1, avg: null, stdev: null, values: { good: 1 } });
  });

  test("stats honour the same filters as the query", async () => {
    const roots = await runStats(
      db,
      ws,
      selectionFromWire(runSelection.parse({ session: [project], is_root: true, filter: 'gte(latency, "2s")' })),
    );
    assert.equal(roots.run_count, 2);
    assert.equal(roots.error_rate, 0.5);
    assert.deepEqual(Object.keys(roots.feedback_stats).sort(), ["correctness", "vibe"]);
    assert.equal(roots.feedback_stats.correctness.avg, 0);
    const none = await runStats(db, ws, selectionFromWire(runSelection.parse({ session: [project], filter: 'eq(name, "nothing")' })));
    assert.equal(none.run_count, 0);
    assert.equal(none.latency_p50, null);
    assert.deepEqual(none.feedback_stats, {});
  });

  test("threads group traces by thread id, newest first", async () => {
    const { groups, total } = await groupThreads(
      db,
      ws,
      threadQueryFromWire(runGroupBody.parse({ session_id: project, group_by: "conversation" })),
    );
    assert.equal(total, 2);
    assert.deepEqual(
      groups.map((g) => g.thread_id),
      ["t2", "t1"],
    );
    const t1 = groups[1];
    assert.equal(t1.count, 2);
    assert.equal(t1.total_tokens, 55);
    assert.ok(Math.abs(t1.total_cost! - 0.1) < 1e-9);
    assert.equal(t1.min_start_time, "2026-02-01T10:00:00.000000Z");
    assert.equal(t1.max_start_time, "2026-02-01T10:01:00.000000Z");
    assert.equal(t1.latency_p50, 2);
    assert.equal(t1.first_inputs, `{"q": "hi"}`, "the stored preview, or the start of the JSON for runs stored without one");
    assert.equal(t1.last_outputs, `{"a": "ciao"}`);
    assert.equal(t1.filter, 'eq(thread_id, "t1")');
    assert.equal(t1.feedback_stats?.correctness.n, 2);
    assert.equal(groups[0].last_error, "boom");
    const second = await groupThreads(db, ws, threadQueryFromWire(runGroupBody.parse({ session_id: project, limit: 1, offset: 1 })));
    assert.deepEqual(
      second.groups.map((g) => g.thread_id),
      ["t1"],
    );
    assert.equal(second.total, 2);
  });
});
