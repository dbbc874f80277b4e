import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { signUp } from "../auth/users";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { seedFeedback, seedProject, seedRun, type SeededRun } from "../runs/test-seed";
import { decodeTraceOutline } from "../runs/trace-outline-wire";
import { createCaller } from "./router";

const base = Date.parse("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(base + ms);

async function rejectsWith(promise: Promise<unknown>, code: TRPCError["code"], message?: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof TRPCError, `expected a TRPCError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return true;
  });
}

withTestDatabases("tRPC routers", (open) => {
  let db: Sql;
  let ada: { userId: string; workspaceId: string };
  let bob: { userId: string; workspaceId: string };
  let project: string;
  const runs: Record<string, SeededRun> = {};
  const as = (userId: string | null) => createCaller({ sql: db, userId });

  before(async () => {
    db = (await open()).sql;
    ada = await signUp(db, { email: `ada-${randomUUID()}@example.com`, password: "ada-password-1" });
    bob = await signUp(db, { email: `bob-${randomUUID()}@example.com`, password: "bob-password-1" });
    project = await seedProject(db, ada.workspaceId, "support-bot");
    runs.root = await seedRun(db, ada.workspaceId, project, { name: "agent", start: at(0), latencyMs: 900, inputs: { q: "big input" } });
    const parent = { ...runs.root };
    runs.llm = await seedRun(db, ada.workspaceId, project, {
      name: "ChatOpenAI",
      runType: "llm",
      parent,
      start: at(100),
      latencyMs: 300,
      promptTokens: 10,
      completionTokens: 5,
      model: "gpt-4o-mini",
      firstTokenMs: 120,
    });
    runs.tool = await seedRun(db, ada.workspaceId, project, {
      name: "search",
      runType: "tool",
      parent,
      start: at(50),
      latencyMs: 100,
      error: "Timeout",
    });
    runs.nested = await seedRun(db, ada.workspaceId, project, { name: "inner", parent: { ...runs.tool }, start: at(60), latencyMs: 10 });
    runs.other = await seedRun(db, ada.workspaceId, project, { name: "second", start: at(5000), latencyMs: 20 });
    await seedFeedback(db, ada.workspaceId, { ...runs.llm, projectId: project }, "correctness", 1);
  });

  test("projects.list gives the member's projects with statistics", async () => {
    const list = await as(ada.userId).projects.list({ workspaceId: ada.workspaceId });
    const mine = list.find((p) => p.id === project);
    assert.ok(mine);
    assert.equal(mine.run_count, 2);
    assert.equal(typeof mine.latency_p50, "number");
  });

  test("another workspace is NOT_FOUND, no session is UNAUTHORIZED", async () => {
    await rejectsWith(as(bob.userId).projects.list({ workspaceId: ada.workspaceId }), "NOT_FOUND", /not found/);
    await rejectsWith(as(null).projects.list({ workspaceId: ada.workspaceId }), "UNAUTHORIZED");
    await rejectsWith(as(bob.userId).trace.get({ workspaceId: ada.workspaceId, traceId: runs.root.traceId }), "NOT_FOUND");
  });

  test("runs.list pages with the cursor, filters, and leaves inputs in the database", async () => {
    const caller = as(ada.userId);
    const first = await caller.runs.list({ workspaceId: ada.workspaceId, projectId: project, limit: 3 });
    assert.equal(first.runs.length, 3);
    assert.ok(first.next);
    const second = await caller.runs.list({ workspaceId: ada.workspaceId, projectId: project, limit: 3, cursor: first.next });
    assert.equal(second.runs.length, 2);
    assert.equal(second.next, null);
    assert.equal(new Set([...first.runs, ...second.runs].map((r) => r.id)).size, 5);
    assert.ok(!("inputs" in first.runs[0]));
    const roots = await caller.runs.list({ workspaceId: ada.workspaceId, projectId: project, rootOnly: true });
    assert.deepEqual(
      roots.runs.map((r) => r.name),
      ["second", "agent"],
    );
    const slow = await caller.runs.list({
      workspaceId: ada.workspaceId,
      projectId: project,
      filter: 'and(eq(run_type, "llm"), gt(latency, "200ms"))',
    });
    assert.deepEqual(
      slow.runs.map((r) => r.name),
      ["ChatOpenAI"],
    );
    assert.equal(slow.runs[0].feedback_stats?.correctness?.avg, 1);
  });

  test("a filter the parser cannot read is BAD_REQUEST with its position", async () => {
    await rejectsWith(
      as(ada.userId).runs.list({ workspaceId: ada.workspaceId, projectId: project, filter: "eq(latency" }),
      "BAD_REQUEST",
      /position \d+/,
    );
  });

  test("trace.get lists the trace in tree order without inputs; runs.get reads one run whole", async () => {
    const caller = as(ada.userId);
    const trace = decodeTraceOutline(await caller.trace.get({ workspaceId: ada.workspaceId, traceId: runs.root.traceId }));
    assert.deepEqual(
      trace.runs.map((r) => r.name),
      ["agent", "search", "inner", "ChatOpenAI"],
    );
    assert.equal(trace.truncated, false);
    assert.ok(!("inputs" in trace.runs[0]));
    assert.equal(trace.runs[1].error, "Timeout");
    assert.deepEqual(
      trace.runs.map((r) => [r.parent, r.parent_run_id, r.start_ms, r.end_ms]),
      [
        [-1, null, 0, 900],
        [0, runs.root.id, 50, 150],
        [1, runs.tool.id, 60, 70],
        [0, runs.root.id, 100, 400],
      ],
      "parents come as indexes of the outline, times as milliseconds from the trace's start",
    );
    const llm = trace.runs.find((r) => r.name === "ChatOpenAI")!;
    assert.deepEqual(
      [llm.model, llm.first_token_ms, llm.total_tokens],
      ["gpt-4o-mini", 120, 15],
      "the tree shows each LLM run's model, first-token time and tokens",
    );
    const run = await caller.runs.get({ workspaceId: ada.workspaceId, runId: runs.root.id });
    assert.deepEqual(run.inputs, { q: "big input" });
    await rejectsWith(caller.runs.get({ workspaceId: ada.workspaceId, runId: randomUUID() }), "NOT_FOUND");
    await rejectsWith(caller.trace.get({ workspaceId: ada.workspaceId, traceId: randomUUID() }), "NOT_FOUND");
  });

  test("runs.stats and projects.activity answer for the selection", async () => {
    const caller = as(ada.userId);
    const stats = await caller.runs.stats({ workspaceId: ada.workspaceId, projectId: project });
    assert.equal(stats.run_count, 5);
    const activity = await caller.projects.activity({ workspaceId: ada.workspaceId, projectId: project });
    assert.equal(activity.buckets.length, 14);
    assert.deepEqual(
      activity.series.map((s) => s.metric),
      ["run_count", "error_count"],
    );
  });
});
