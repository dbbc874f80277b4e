import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Sql } from "../../db/client";
import { sql } from "../../db/sql";
import { withTestDatabases } from "../../db/test-databases";
import { ingestRuns } from "../../ingest/service";
import { chartSeries, scanChartRows } from "../../charts/series";
import { rollupChartRows } from "../../charts/rollup-rows";
import { chartQueryFromWire, chartRequest } from "../../charts/schema";
import { projectStats } from "../../sessions/stats";
import { runSelection, selectionFromWire, type WireRunSelection } from "../schema";
import { runStats, runStatsScan, type RunStats } from "../stats";
import { near } from "./test-near";
import { statsSource } from "./stats";
import { compactRollups } from "./compact";
import { batches, DAY, plan, random } from "./test-traces";

const ws = randomUUID();

function assertStatsMatch(rollup: RunStats, scan: RunStats, what: string): void {
  const exact = ["run_count", "prompt_tokens", "completion_tokens", "total_tokens", "last_run_start_time"] as const;
  for (const key of exact) assert.equal(rollup[key], scan[key], `${what}: ${key}`);
  for (const key of ["error_rate", "streaming_rate", "prompt_cost", "completion_cost", "total_cost"] as const) {
    if (scan[key] === null) assert.equal(rollup[key], null, `${what}: ${key}`);
    else assert.ok(Math.abs(rollup[key]! - scan[key]!) < 1e-9, `${what}: ${key} ${rollup[key]} vs ${scan[key]}`);
  }
  const sketched = [
    "latency_p50",
    "latency_p99",
    "first_token_p50",
    "first_token_p99",
    "median_tokens",
    "tokens_p99",
    "cost_p50",
    "cost_p99",
  ] as const;
  for (const key of sketched) near(rollup[key], scan[key], `${what}: ${key}`);
  assert.deepEqual(Object.keys(rollup.feedback_stats).sort(), Object.keys(scan.feedback_stats).sort(), `${what}: feedback keys`);
  for (const [key, s] of Object.entries(scan.feedback_stats)) {
    const r = rollup.feedback_stats[key];
    assert.equal(r.n, s.n, `${what}: feedback ${key} n`);
    assert.deepEqual(r.values, s.values, `${what}: feedback ${key} values`);
    for (const k of ["avg", "stdev"] as const) {
      if (s[k] === null) assert.equal(r[k], null);
      else assert.ok(Math.abs(r[k]! - s[k]!) < 1e-6, `${what}: feedback ${key} ${k} ${r[k]} vs ${s[k]}`);
    }
  }
}

withTestDatabases("rollups answer as the scan does", (open) => {
  let db: Sql;
  let projects: string[];
  let ids: string[];

  const selections = (): [string, Partial<WireRunSelection>][] => [
    ["workspace", {}],
    ["project", { session: [projects[0]] }],
    ["two projects", { session: projects.slice(0, 2) }],
    ["roots", { session: [projects[0]], is_root: true }],
    ["not roots", { session: [projects[1]], is_root: false }],
    ["llm runs", { run_type: "llm" }],
    ["errors", { session: [projects[0]], error: true }],
    ["a filter on dimensions", { filter: 'and(eq(run_type, "llm"), neq(status, "error"))' }],
    ["a range with partial hours", { start_time: "2026-05-01T10:17:00Z", end_time: "2026-05-03T07:41:13.5Z" }],
    ["roots from a time", { is_root: true, start_time: "2026-05-02T00:30:00Z" }],
    ["until a time", { session: [projects[1]], end_time: "2026-05-02T12:00:00Z" }],
    // The single-dimension rollups: one of name, model and provider (with the shared dimensions).
    ["one name", { session: [projects[0]], filter: 'eq(name, "agent")' }],
    ["names, roots", { filter: 'or(eq(name, "rag"), eq(name, "chat"))', is_root: true }],
    ["one model", { filter: 'eq(model, "gpt-4o")' }],
    ["not a model", { session: [projects[1]], filter: 'and(neq(model, "gpt-4o"), eq(run_type, "llm"))' }],
    [
      "one provider in a range",
      { filter: 'eq(provider, "anthropic")', start_time: "2026-05-01T10:17:00Z", end_time: "2026-05-03T07:41:13.5Z" },
    ],
    ["one name from a time", { filter: 'eq(name, "ChatOpenAI")', start_time: "2026-05-01T23:30:00Z" }],
    ["one model until a time", { filter: 'eq(model, "claude-3-5-sonnet")', end_time: "2026-05-02T12:00:00Z", error: false }],
  ];

  async function compareEverything(label: string): Promise<void> {
    const everything = await runStatsScan(db, ws, selectionFromWire(runSelection.parse({})));
    assert.ok(
      everything.run_count > 100 && everything.total_tokens > 0 && Object.keys(everything.feedback_stats).length > 0,
      "data to compare",
    );
    for (const [name, selection] of selections()) {
      const parsed = selectionFromWire(runSelection.parse(selection));
      assert.ok(statsSource(ws, parsed), `${name} is answered by the rollups`);
      const scanned = await runStatsScan(db, ws, parsed);
      if (selection.filter) assert.ok(scanned.run_count > 0, `${label} / ${name}: runs to compare`);
      assertStatsMatch(await runStats(db, ws, parsed), scanned, `${label} / ${name}`);
    }
    const listed = await projectStats(db, ws, projects);
    for (const project of projects) {
      const all = await runStatsScan(db, ws, selectionFromWire(runSelection.parse({ session: [project] })));
      const roots = await runStatsScan(db, ws, selectionFromWire(runSelection.parse({ session: [project], is_root: true })));
      const stats = listed.get(project)!;
      assert.equal(stats.run_count, roots.run_count, `${label} / projects list run count`);
      near(stats.latency_p50, roots.latency_p50, `${label} / projects list latency`);
      assert.equal(stats.total_tokens, all.total_tokens, `${label} / projects list tokens`);
      assert.equal(stats.last_run_start_time, all.last_run_start_time, `${label} / projects list last run`);
    }
    const charts = [
      { metrics: ["run_count", "error_count", "error_rate", "total_tokens", "total_cost", "latency_p50", "first_token_p99", "feedback"] },
      { metrics: ["run_count", "total_cost", "prompt_tokens"], group_by: { attribute: "model" } },
      { metrics: ["run_count", "latency_p99"], group_by: { attribute: "run_type" }, is_root: false, bucket: "3h" },
      { metrics: ["run_count", "error_rate"], group_by: { attribute: "name" }, session: projects[0], max_groups: 2 },
      { metrics: ["feedback", "latency_p50"], group_by: { attribute: "status" }, filter: 'eq(run_type, "chain")' },
      // Percentiles of the whole selection in day buckets (the day rows of no dimension).
      { metrics: ["latency_p50", "latency_p99", "first_token_p99", "run_count"], bucket: "1d" },
      { metrics: ["latency_p99", "feedback"], group_by: { attribute: "status" }, is_root: true, bucket: "1d" },
      // Percentiles and feedback by one of name, model and provider, in day buckets and in 6-hour ones.
      { metrics: ["run_count", "latency_p50", "first_token_p99", "feedback"], group_by: { attribute: "model" }, bucket: "1d" },
      { metrics: ["latency_p99", "feedback"], group_by: { attribute: "name" }, is_root: true },
      { metrics: ["latency_p50", "run_count"], group_by: { attribute: "provider" }, filter: 'eq(provider, "openai")', bucket: "1d" },
      { metrics: ["latency_p50", "feedback"], group_by: { attribute: "run_type" }, filter: 'eq(name, "search")', bucket: "1d" },
    ];
    for (const spec of charts) {
      const request = chartQueryFromWire(
        chartRequest.parse({
          ...spec,
          start_time: "2026-04-30T22:10:00Z",
          end_time: "2026-05-04T03:20:00Z",
          bucket: spec.bucket ?? "6h",
        }),
      );
      const window = {
        startMs: Date.parse(request.startTime as string),
        endMs: Date.parse(request.endTime as string),
        seconds: request.bucket === "3h" ? 10_800 : request.bucket === "1d" ? 86_400 : 21_600,
      };
      // The chart's own selection (its project, filter and root flag), as the service reads it.
      const { selection } = request;
      const fromRollups = await rollupChartRows(db, ws, selection, request.metrics, request.groupBy, window);
      assert.ok(fromRollups, `${label} / chart ${JSON.stringify(spec)} is answered by the rollups`);
      const scanned = await scanChartRows(db, ws, selection, request, window);
      const key = (r: { bucket: number; label: string | null }) => JSON.stringify([r.bucket, r.label]);
      const scannedBy = new Map(scanned.rows.map((r) => [key(r), r]));
      assert.deepEqual(fromRollups.rows.map(key).sort(), [...scannedBy.keys()].sort(), `${label} / chart groups`);
      for (const row of fromRollups.rows) {
        const other = scannedBy.get(key(row))!;
        for (const metric of request.metrics.filter((m) => m !== "feedback")) {
          const what = `${label} / chart ${metric} at ${key(row)}`;
          if (metric.includes("_p")) near(row[metric], other[metric], what);
          else assert.ok(Math.abs(Number(row[metric]) - Number(other[metric])) < 1e-9, `${what}: ${row[metric]} vs ${other[metric]}`);
        }
      }
      const feedbackKey = (f: { bucket: number; label: string | null; key: string }) => JSON.stringify([f.bucket, f.label, f.key]);
      const scannedFeedback = new Map(scanned.feedback.map((f) => [feedbackKey(f), f.avg]));
      assert.equal(fromRollups.feedback.length, scannedFeedback.size, `${label} / chart feedback rows`);
      for (const f of fromRollups.feedback) assert.ok(Math.abs(f.avg! - scannedFeedback.get(feedbackKey(f))!) < 1e-9);
      // And the whole chart, through the service, has every series.
      assert.ok((await chartSeries(db, ws, request)).series.length > 0);
    }
  }

  before(async () => {
    db = (await open()).sql;
    projects = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of projects.entries())
      await db.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${id}, ${ws}, ${`rollups-${i}`})`);
  });

  test("random traces, arriving out of order and patched later, with feedback before and after", async () => {
    const rand = random(20261126);
    const { posts, patches, runIds } = plan(rand, projects, 120);
    ids = runIds;
    // Feedback that arrives before its run, with scores and string values.
    const feedbackOn = (runId: string) => sql`
      INSERT INTO feedback (id, workspace_id, run_id, key, score, value)
      VALUES (${randomUUID()}, ${ws}, ${runId}, ${rand.pick(["correctness", "helpfulness"])},
              ${rand.next() < 0.7 ? rand.int(5) / 4 : null}, ${rand.next() < 0.4 ? JSON.stringify(rand.pick(["good", "bad"])) : null}::jsonb)`;
    for (const id of ids.slice(0, 40)) await db.query(feedbackOn(id));
    for (const batch of batches(rand, posts, 25)) await ingestRuns(db, ws, { post: batch });
    await compareEverything("posted");
    for (const batch of batches(rand, patches, 25)) await ingestRuns(db, ws, { patch: batch });
    for (const id of ids.slice(40, 90)) await db.query(feedbackOn(id));
    await compareEverything("patched");
  });

  test("edits and deletions of runs and feedback, and a deleted project, before and after compaction", async () => {
    await db.query(sql`UPDATE feedback SET score = 1 - coalesce(score, 0) WHERE workspace_id = ${ws} AND key = 'correctness'`);
    await db.query(sql`DELETE FROM feedback WHERE workspace_id = ${ws} AND key = 'helpfulness' AND score = 0`);
    // A later patch moves runs: a new name, an error, a later start (another hour).
    await ingestRuns(db, ws, {
      patch: ids.slice(0, 10).map((id, i) => ({ id, error: i % 2 ? "late failure" : undefined, start_time: "2026-05-02T05:05:05Z" })),
    });
    await db.query(sql`DELETE FROM runs WHERE workspace_id = ${ws} AND id = ANY(${ids.slice(100, 130)}::uuid[])`);
    await compareEverything("edited");
    const [partly] = await db.query<{ n: number }>(sql`SELECT folded AS n FROM rollup_compact(50)`);
    assert.equal(partly.n, 50, "more delta rows than one small batch");
    await compareEverything("partly compacted");
    await compactRollups(db);
    const [left] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM run_sketches WHERE NOT merged`);
    assert.equal(left.n, 0, "every delta row folded");
    const [split] = await db.query<{ sketches: number; feedback: number }>(sql`
      SELECT (SELECT count(*)::int FROM run_dim_sketches WHERE workspace_id = ${ws}) AS sketches,
        (SELECT count(*)::int FROM feedback_dim_buckets WHERE workspace_id = ${ws}) AS feedback`);
    assert.ok(split.sketches > 0 && split.feedback > 0, "the fold wrote the single-dimension rollups");
    await compareEverything("compacted");
    await db.query(sql`DELETE FROM projects WHERE id = ${projects[2]}`);
    await compactRollups(db);
    await compareEverything("project deleted");
    const [orphans] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM run_buckets WHERE project_id = ${projects[2]}`);
    assert.equal(orphans.n, 0, "a deleted project leaves no buckets behind");
  });

  test("what the rollups cannot answer goes to the scan", async () => {
    for (const selection of [
      { query: "question" },
      { filter: 'gt(latency, "1s")' },
      { trace_filter: 'eq(name, "agent")' },
      { id: [ids[0]] },
    ]) {
      assert.equal(statsSource(ws, selectionFromWire(runSelection.parse(selection))), null, JSON.stringify(selection));
    }
    assert.ok(
      statsSource(ws, selectionFromWire(runSelection.parse({ filter: 'and(eq(name, "agent"), eq(model, "gpt-4o"))' }))) === null,
      "two of name, model and provider: no single-dimension rollup holds them together",
    );
    assert.equal(
      await rollupChartRows(
        db,
        ws,
        { filter: 'eq(name, "agent")' },
        ["latency_p50"],
        { attribute: "model" },
        { startMs: DAY, endMs: DAY + 86_400_000, seconds: 3600 },
      ),
      null,
      "percentiles filtered by name and grouped by model",
    );
    const window = { startMs: DAY, endMs: DAY + 86_400_000, seconds: 1800 };
    assert.equal(await rollupChartRows(db, ws, {}, ["run_count"], null, window), null, "half-hour buckets");
    assert.equal(await rollupChartRows(db, ws, {}, ["run_count"], { attribute: "tag" }, { ...window, seconds: 3600 }), null, "tags");
    assert.ok(
      await rollupChartRows(db, ws, { filter: 'eq(name, "agent")' }, ["run_count"], { attribute: "model" }, { ...window, seconds: 3600 }),
    );
  });
});
