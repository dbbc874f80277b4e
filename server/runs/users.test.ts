import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { queryRuns } from "./query";
import { runGroupBody, runQueryBody, runQueryFromWire, threadQueryFromWire } from "./schema";
import { seedFeedback, seedProject, seedRun } from "./test-seed";
import { listAppUsers } from "./users";
import { refreshTraceTotals } from "./trace-totals";
import { ingestRuns } from "../ingest/service";
import { randomUUID } from "node:crypto";
import { threadTurns } from "./thread-turns";
import { groupThreads } from "./threads";
import { createFeedback } from "../feedback/service";
import { feedbackCreate } from "../feedback/schema";

const HOUR = 3_600_000;

withTestDatabases("end users and threads as a unit", (open) => {
  let db: Sql;
  let ws: string;
  let project: string;
  const now = Date.now();
  test("setup: traces of three users under the four keys the clients use", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "users tests")).id;
    project = await seedProject(db, ws);
    const root = async (metadata: Record<string, unknown>, hoursAgo: number, extra: Parameters<typeof seedRun>[3] = {}) =>
      seedRun(db, ws, project, { metadata, start: new Date(now - hoursAgo * HOUR), ...extra });
    const a1 = await root({ user_id: "alice" }, 1, { promptTokens: 10, completionTokens: 5, promptCost: 0.01, threadId: "t-1" });
    await root({ ls_user_id: "alice" }, 30, { promptTokens: 100, completionTokens: 0, threadId: "t-2", error: "boom" });
    await root({ "user.id": "bob" }, 2, { promptTokens: 1, completionTokens: 1 });
    await root({ userId: "carol" }, 3);
    await root({ user_id: "x".repeat(300) }, 1);
    await root({ user_id: "" }, 1);
    await root({}, 1);
    // A child run naming a user is not a trace of theirs.
    await seedRun(db, ws, project, { metadata: { user_id: "dave" }, parent: { ...a1, id: a1.id } });
    await seedFeedback(db, ws, { ...a1, projectId: project }, "helpful", 1);
    // Ingest writes each trace's totals with its runs; the seeded runs get theirs here.
    const seeded = await db.query<{ id: string }>(sql`SELECT id FROM runs WHERE workspace_id = ${ws}`);
    await refreshTraceTotals(
      db,
      ws,
      seeded.map((r) => r.id),
    );
  });

  test("each user's traces, threads, errors, tokens, cost, feedback and last seen", async () => {
    const { users, total } = await listAppUsers(db, ws, { projectId: project });
    assert.equal(total, 3);
    assert.deepEqual(
      users.map((u) => u.user_id),
      ["alice", "bob", "carol"],
    );
    const alice = users[0];
    assert.equal(alice.traces, 2);
    assert.equal(alice.threads, 2);
    assert.equal(alice.errors, 1);
    assert.equal(alice.total_tokens, 115);
    assert.ok(Math.abs(alice.total_cost! - 0.01) < 1e-9);
    assert.deepEqual(alice.feedback, { helpful: { n: 1, avg: 1 } });
    assert.ok(Date.parse(alice.last_seen!) > now - 2 * HOUR);
  });

  test("sorted, searched and bounded by the time range", async () => {
    const byTraces = await listAppUsers(db, ws, { projectId: project, sort: { by: "traces", dir: "asc" } });
    assert.equal(byTraces.users.at(-1)!.user_id, "alice");
    assert.deepEqual(
      (await listAppUsers(db, ws, { projectId: project, search: "BO" })).users.map((u) => u.user_id),
      ["bob"],
    );
    const lastDay = await listAppUsers(db, ws, { projectId: project, startTime: new Date(now - 24 * HOUR).toISOString() });
    assert.equal(lastDay.users.find((u) => u.user_id === "alice")!.traces, 1);
  });

  test("through ingest: a child before its root, a user named by a later patch, a failed child", async () => {
    const other = await seedProject(db, ws, "ingested users");
    const root = randomUUID();
    const child = randomUUID();
    const start = new Date(now - HOUR);
    const dotted = (at: Date, id: string) => `${at.toISOString().replace(/[-:.]/g, "").replace("Z", "000Z")}${id}`;
    const rootOrder = dotted(start, root);
    const childStart = new Date(start.getTime() + 10);
    const run = (id: string, extra: Record<string, unknown>) => ({
      id,
      trace_id: root,
      session_id: other,
      name: "step",
      run_type: "chain",
      start_time: start.toISOString(),
      inputs: {},
      ...extra,
    });
    await ingestRuns(db, ws, {
      post: [run(child, { parent_run_id: root, dotted_order: `${rootOrder}.${dotted(childStart, child)}`, error: "tool failed" })],
    });
    await ingestRuns(db, ws, { post: [run(root, { dotted_order: rootOrder, extra: { metadata: { thread_id: "th-9" } } })] });
    assert.equal((await listAppUsers(db, ws, { projectId: other })).total, 0, "no user named yet");
    await ingestRuns(db, ws, {
      patch: [
        { id: root, trace_id: root, dotted_order: rootOrder, end_time: new Date().toISOString(), extra: { metadata: { user_id: "erin" } } },
      ],
    });
    const { users } = await listAppUsers(db, ws, { projectId: other });
    assert.deepEqual(
      users.map((u) => [u.user_id, u.traces, u.threads, u.errors, Date.parse(u.first_seen!)]),
      [["erin", 1, 1, 1, start.getTime()]],
    );
  });

  test("the runs list filtered by user: eq(user_id, ...) over any of the keys", async () => {
    const page = await queryRuns(
      db,
      ws,
      runQueryFromWire(runQueryBody.parse({ session: [project], is_root: true, filter: 'eq(user_id, "alice")' })),
    );
    assert.equal(page.runs.length, 2);
    const bob = await queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ session: [project], filter: 'eq(user_id, "bob")' })));
    assert.equal(bob.runs.length, 1);
  });

  test("a user's traces are read through the expression index", async () => {
    await db.query(sql`SET enable_seqscan = off`);
    try {
      const plan = await db.query<{ "QUERY PLAN": string }>(sql`
        EXPLAIN SELECT count(*) FROM runs r WHERE r.workspace_id = ${ws} AND r.project_id = ${project}::uuid AND r.is_root
          AND run_user_id(r.extra) = 'alice'`);
      assert.match(plan.map((p) => p["QUERY PLAN"]).join("\n"), /Index Scan using runs_\w+_run_user_id_start_tim/);
    } finally {
      await db.query(sql`RESET enable_seqscan`);
    }
  });

  test("a thread's turns carry tokens, cost, latency, errors and feedback; feedback on the whole thread", async () => {
    const turn = await seedRun(db, ws, project, {
      threadId: "conv-1",
      start: new Date(now - 5_000),
      promptTokens: 7,
      completionTokens: 3,
      promptCost: 0.002,
      inputs: { question: "hello" },
      outputs: { answer: "hi there" },
    });
    await seedRun(db, ws, project, { threadId: "conv-1", start: new Date(now - 1_000), error: "rate limited", latencyMs: 2500 });
    await seedFeedback(db, ws, { ...turn, projectId: project }, "correct", 0.5);
    const turns = await threadTurns(db, ws, project, "conv-1");
    assert.equal(turns.length, 2);
    assert.equal(turns[0].total_tokens, 10);
    assert.ok(Math.abs(turns[0].total_cost! - 0.002) < 1e-9);
    assert.deepEqual(turns[0].feedback, { correct: { n: 1, avg: 0.5, value: null } });
    assert.equal(turns[0].error_runs, 0);
    assert.equal(turns[1].error_runs, 1);
    assert.equal(turns[1].latency, 2.5);

    const made = await createFeedback(
      db,
      ws,
      feedbackCreate.parse({ session_id: project, thread_id: "conv-1", key: "resolved", score: 1, comment: "solved in two turns" }),
    );
    assert.equal(made.thread_id, "conv-1");
    assert.equal(made.run_id, null);
    assert.equal(made.session_id, project);
    const { groups } = await groupThreads(db, ws, threadQueryFromWire(runGroupBody.parse({ session_id: project })));
    const conv = groups.find((g) => g.thread_id === "conv-1")!;
    assert.deepEqual(Object.keys(conv.feedback_stats ?? {}).sort(), ["correct", "resolved"]);
    assert.equal((conv.feedback_stats!.resolved as { contains_thread_feedback?: boolean }).contains_thread_feedback, true);
    // Turns' feedback stays on the turns.
    assert.equal((await threadTurns(db, ws, project, "conv-1"))[0].feedback.resolved, undefined);
  });
});
