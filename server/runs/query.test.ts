import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { FilterSyntaxError } from "./filter/index";
import { ingestRuns } from "../ingest/service";
import { queryRuns } from "./query";
import { runQueryBody, runQueryFromWire } from "./schema";
import { seedFeedback, seedProject, seedRun, type SeededRun } from "./test-seed";

const ws = randomUUID();
const otherWs = randomUUID();
const base = Date.parse("2026-01-01T00:00:00Z");
const at = (minutes: number) => new Date(base + minutes * 60_000);

withTestDatabases("runs query", (open) => {
  let db: Sql;
  let project: string;
  let other: string;
  const runs: Record<string, SeededRun> = {};
  const q = async (body: Record<string, unknown>) =>
    queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ session: [project], ...body })));
  const names = async (body: Record<string, unknown>) => (await q(body)).runs.map((r) => r.name).sort();

  before(async () => {
    db = (await open()).sql;
    project = await seedProject(db, ws);
    other = await seedProject(db, ws);
    runs.agent = await seedRun(db, ws, project, {
      name: "agent",
      start: at(0),
      latencyMs: 8000,
      metadata: { user: "ann", tier: 2 },
      tags: ["prod"],
      threadId: "t1",
      inputs: { question: "weather in Paris?" },
      outputs: { answer: "sunny" },
    });
    runs.llm = await seedRun(db, ws, project, {
      name: "ChatOpenAI",
      runType: "llm",
      parent: { ...runs.agent, id: runs.agent.id },
      start: at(0.1),
      latencyMs: 2500,
      model: "gpt-4o",
      promptTokens: 100,
      completionTokens: 20,
      promptCost: 0.001,
      completionCost: 0.002,
      firstTokenMs: 300,
      tags: ["prod", "llm"],
    });
    runs.tool = await seedRun(db, ws, project, {
      name: "search_tool",
      runType: "tool",
      parent: { ...runs.agent, id: runs.agent.id },
      start: at(0.2),
      latencyMs: 100,
      error: "Timeout contacting API",
    });
    runs.agent2 = await seedRun(db, ws, project, {
      name: "agent2",
      start: at(5),
      latencyMs: 500,
      metadata: { user: "bob", tier: 1 },
      tags: ["dev"],
      inputs: { question: "hello" },
    });
    runs.pending = await seedRun(db, ws, project, { name: "pending", start: at(6), latencyMs: null, metadata: { user: "ann" } });
    runs.elsewhere = await seedRun(db, ws, other, { name: "elsewhere", start: at(7) });
    await seedRun(db, otherWs, await seedProject(db, otherWs), { name: "foreign", start: at(8) });
    await seedFeedback(db, ws, { ...runs.agent, projectId: project }, "correctness", 1);
    await seedFeedback(db, ws, { ...runs.agent2, projectId: project }, "correctness", 0);
    await seedFeedback(db, ws, { ...runs.agent2, projectId: project }, "helpfulness", 0.9);
  });

  test("a project's runs, newest first, with the wire shape", async () => {
    const page = await q({});
    assert.deepEqual(
      page.runs.map((r) => r.name),
      ["pending", "agent2", "search_tool", "ChatOpenAI", "agent"],
    );
    assert.equal(page.cursors.next, null);
    const agent = page.runs.find((r) => r.name === "agent")!;
    assert.equal(agent.parent_run_id, null);
    assert.equal(agent.session_id, project);
    assert.equal(agent.start_time, "2026-01-01T00:00:00.000000Z");
    assert.equal(agent.end_time, "2026-01-01T00:00:08.000000Z");
    assert.deepEqual(agent.feedback_stats, { correctness: { n: 1, avg: 1, stdev: 0, values: {} } });
    const llm = page.runs.find((r) => r.name === "ChatOpenAI")!;
    assert.equal(llm.parent_run_id, runs.agent.id);
    assert.deepEqual(llm.parent_run_ids, [runs.agent.id]);
    assert.equal(llm.total_tokens, 120);
    assert.equal(llm.total_cost, 0.003);
    assert.equal(llm.first_token_time, "2026-01-01T00:00:06.300000Z");
    assert.equal(typeof llm.app_path, "string");
  });

  test("keyset cursors walk every run once, in both orders", async () => {
    for (const order of ["desc", "asc"] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof q>> = await q({ limit: 2, order, ...(cursor ? { cursor } : {}) });
        seen.push(...page.runs.map((r) => r.name as string));
        cursor = page.cursors.next;
      } while (cursor);
      const expected = ["agent", "ChatOpenAI", "search_tool", "agent2", "pending"];
      assert.deepEqual(seen, order === "asc" ? expected : [...expected].reverse());
    }
  });

  test("another workspace's runs are invisible, even by id", async () => {
    const page = await queryRuns(db, otherWs, runQueryFromWire(runQueryBody.parse({ id: [runs.agent.id] })));
    assert.equal(page.runs.length, 0);
    assert.deepEqual(await names({ session: undefined, query: "foreign" }), []);
  });

  test("structured arguments: run_type, is_root, error, trace, parent_run, start_time, id list", async () => {
    assert.deepEqual(await names({ run_type: "llm" }), ["ChatOpenAI"]);
    assert.deepEqual(await names({ is_root: true }), ["agent", "agent2", "pending"]);
    assert.deepEqual(await names({ error: true }), ["search_tool"]);
    assert.deepEqual(await names({ trace: runs.agent.id }), ["ChatOpenAI", "agent", "search_tool"]);
    assert.deepEqual(await names({ parent_run: runs.agent.id }), ["ChatOpenAI", "search_tool"]);
    assert.deepEqual(await names({ start_time: at(5).toISOString() }), ["agent2", "pending"]);
    assert.deepEqual(await names({ id: [runs.agent.id, runs.elsewhere.id], run_type: "llm" }), ["agent", "elsewhere"]);
    assert.deepEqual(await names({ query: "paris" }), ["agent"]);
  });

  test("filter language semantics", async () => {
    const cases: [string, string[]][] = [
      ['eq(run_type, "llm")', ["ChatOpenAI"]],
      ['gt(latency, "5s")', ["agent"]],
      ["gt(latency, 2)", ["ChatOpenAI", "agent"]],
      ['lt(latency, "250ms")', ["search_tool"]],
      ["neq(error, null)", ["search_tool"]],
      ["eq(error, false)", ["ChatOpenAI", "agent", "agent2", "pending"]],
      ['has(tags, "prod")', ["ChatOpenAI", "agent"]],
      ['and(has(tags, "prod"), neq(run_type, "llm"))', ["agent"]],
      ['and(eq(metadata_key, "user"), eq(metadata_value, "ann"))', ["agent", "pending"]],
      ['and(eq(metadata_key, "tier"), eq(metadata_value, "2"))', ["agent"]],
      ['and(eq(metadata_key, "user"), neq(metadata_value, "ann"))', ["ChatOpenAI", "agent2", "search_tool"]],
      ['and(eq(metadata_key, "user"), eq(metadata_value, "bob"), eq(run_type, "chain"))', ["agent2"]],
      ['eq(metadata_value, "bob")', ["agent2"]],
      ['has(metadata, \'{"user":"bob"}\')', ["agent2"]],
      ['exists(metadata, "tier")', ["agent", "agent2"]],
      ['and(eq(input_key, "question"), eq(input_value, "hello"))', ["agent2"]],
      ['and(eq(output_key, "answer"), eq(output_value, "sunny"))', ["agent"]],
      ['and(eq(feedback_key, "correctness"), eq(feedback_score, 1))', ["agent"]],
      ['and(eq(feedback_key, "correctness"), lt(feedback_score, 0.5))', ["agent2"]],
      ['and(eq(feedback_key, "helpfulness"), gt(feedback_score, 0.5))', ["agent2"]],
      ['eq(feedback_key, "helpfulness")', ["agent2"]],
      ['search("timeout")', ["search_tool"]],
      ['search(name, "AGENT")', ["agent", "agent2"]],
      ['like(name, "agent%")', ["agent", "agent2"]],
      ['in(name, ["agent", "pending"])', ["agent", "pending"]],
      ['eq(thread_id, "t1")', ["agent"]],
      ["eq(is_root, false)", ["ChatOpenAI", "search_tool"]],
      [`eq(parent_run_id, "${runs.agent.id}")`, ["ChatOpenAI", "search_tool"]],
      ["eq(parent_run_id, null)", ["agent", "agent2", "pending"]],
      ["gt(total_tokens, 50)", ["ChatOpenAI"]],
      ["gte(total_cost, 0.003)", ["ChatOpenAI"]],
      ['lt(first_token_time, "1s")', ["ChatOpenAI"]],
      ['eq(status, "pending")', ["pending"]],
      ["eq(end_time, null)", ["pending"]],
      [`gte(start_time, "${at(5).toISOString()}")`, ["agent2", "pending"]],
      ['not(or(eq(name, "agent"), eq(name, "agent2")))', ["ChatOpenAI", "pending", "search_tool"]],
      ["eq(execution_order, 1)", ["agent", "agent2", "pending"]],
      [`eq(session, "${other}")`, []],
    ];
    for (const [filter, expected] of cases) assert.deepEqual(await names({ filter }), expected, filter);
  });

  test("on a root run, token and cost filters match the trace's totals it shows", async () => {
    const traced = await seedProject(db, ws);
    const root = randomUUID();
    const child = (tokens: number) => {
      const id = randomUUID();
      return {
        id,
        trace_id: root,
        parent_run_id: root,
        dotted_order: `20260101T000000000000Z${root}.20260101T000001000000Z${id}`,
        name: "llm",
        run_type: "llm",
        session_id: traced,
        start_time: "2026-01-01T00:00:01Z",
        end_time: "2026-01-01T00:00:02Z",
        inputs: {},
        outputs: { usage_metadata: { input_tokens: tokens, output_tokens: 0, total_tokens: tokens } },
      };
    };
    await ingestRuns(db, ws, {
      post: [
        {
          id: root,
          trace_id: root,
          dotted_order: `20260101T000000000000Z${root}`,
          name: "agent",
          run_type: "chain",
          session_id: traced,
          start_time: "2026-01-01T00:00:00Z",
          inputs: {},
        },
        child(30_000),
        child(30_329),
      ],
    });
    const roots = (filter: string) =>
      queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ session: [traced], is_root: true, filter }))).then((p) =>
        p.runs.map((r) => [r.name, r.total_tokens]),
      );
    assert.deepEqual(await roots("gt(total_tokens, 50000)"), [["agent", 60_329]], "the root shows 60,329 and is matched by it");
    assert.deepEqual(await roots("lt(total_tokens, 50000)"), []);
    const all = await queryRuns(db, ws, runQueryFromWire(runQueryBody.parse({ session: [traced], filter: "gt(total_tokens, 50000)" })));
    assert.deepEqual(
      all.runs.map((r) => r.name),
      ["agent"],
      "a child keeps its own count",
    );
  });

  test("trace_filter applies to the root, tree_filter to another run of the trace", async () => {
    assert.deepEqual(await names({ trace_filter: 'eq(name, "agent")' }), ["ChatOpenAI", "agent", "search_tool"]);
    assert.deepEqual(await names({ is_root: true, tree_filter: 'eq(run_type, "llm")' }), ["agent"]);
    assert.deepEqual(await names({ filter: 'eq(run_type, "tool")', tree_filter: "gt(total_tokens, 0)" }), ["search_tool"]);
    assert.deepEqual(await names({ trace_filter: 'and(eq(feedback_key, "correctness"), eq(feedback_score, 1))', run_type: "llm" }), [
      "ChatOpenAI",
    ]);
    assert.deepEqual(await names({ execution_order: 1 }), await names({ is_root: true }), "execution_order 1 is the roots only");
  });

  test("select trims the answer but keeps the identity columns; limits above 100 are capped", async () => {
    const page = await q({ select: ["inputs", "outputs"], limit: 1 });
    assert.deepEqual(Object.keys(page.runs[0]).sort(), [
      "dotted_order",
      "id",
      "inputs",
      "name",
      "outputs",
      "parent_run_id",
      "run_type",
      "session_id",
      "start_time",
      "status",
      "trace_id",
    ]);
    assert.ok(page.cursors.next);
    const capped = await q({ limit: 500 });
    assert.equal(capped.runs.length, 5);
  });

  test("a malformed filter or cursor is the caller's error", async () => {
    await assert.rejects(
      q({ filter: 'eq(name, "x" "y")' }),
      (e: unknown) => e instanceof FilterSyntaxError && /position 13/.test(e.message),
    );
    await assert.rejects(q({ cursor: "garbage" }), /Invalid cursor/);
  });
});
