/**
 * The langsmith 0.12 client's next API over the same seeded 1,000-run project as sdk-v2.test.ts:
 * sharing runs and threads, the project's prebuilt dashboard, feedback with run keys, and `sql.query`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";
import { seedV2Project, threadTraces as threadOf, TRACES, type SeededTrace } from "./harness/v2-project";

describe("the client's v2 API: sharing, the dashboard, run keys and SQL", () => {
  let server: RunningServer;
  let sdk: Langsmith;
  let projectId: string;
  /** trace id → its runs' ids (root first) and its LLM run's tokens. */
  let traces: Map<string, SeededTrace>;

  before(async () => {
    server = await startServer();
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
    ({ projectId, traces } = await seedV2Project(server));
  });
  after(async () => server?.stop());

  const threadTraces = (n: number) => threadOf(traces, n);

  test("runs.share, then the public v2 reads without a key, then unshared", async () => {
    const [traceId, trace] = [...traces.entries()][11];
    const { share_token } = await sdk.runs.share.create(traceId, { session_id: projectId, trace_id: traceId });
    assert.ok(share_token);
    const anonymous = new Langsmith({ baseURL: server.url, apiKey: "not-a-key" });
    const llm = await anonymous.public.runs.retrieve(trace.ids[2], {
      share_token,
      selects: ["NAME", "TOTAL_TOKENS", "PARENT_RUN_ID"],
      start_time: "",
    });
    assert.deepEqual(
      [llm.name, llm.total_tokens, (llm as { parent_run_id?: string }).parent_run_id],
      ["ChatOpenAI", trace.tokens, traceId],
    );
    const { items } = await anonymous.public.runs.query(share_token, { selects: ["NAME"] });
    assert.deepEqual(
      items!.map((r) => r.id),
      trace.ids,
    );
    const outsider = [...traces.values()][12].ids[0];
    assert.equal((await call({ url: server.url, apiKey: "" }, "GET", `/api/v2/public/${share_token}/run/${outsider}`)).status, 404);
    const full = await call({ url: server.url, apiKey: "" }, "GET", `/api/v2/public/${share_token}/run/${trace.ids[2]}?selects=INPUTS`);
    assert.equal(full.status, 400, "the full inputs are not public");
    await sdk.runs.share.delete(traceId, { session_id: projectId });
    assert.equal((await call({ url: server.url, apiKey: "" }, "POST", `/api/v2/public/${share_token}/runs/query`, {})).status, 404);
  });

  test("threads.share: one link per thread, its traces' runs public, revoked by delete", async () => {
    const anonymous = new Langsmith({ baseURL: server.url, apiKey: "not-a-key" });
    assert.deepEqual(await sdk.threads.share.retrieve("thread-1", { project_id: projectId }), {}, "not shared yet");
    const { share_token } = await sdk.threads.share.create("thread-1", { project_id: projectId });
    assert.ok(share_token);
    assert.equal((await sdk.threads.share.create("thread-1", { project_id: projectId })).share_token, share_token, "the same link again");
    assert.equal((await sdk.threads.share.retrieve("thread-1", { project_id: projectId })).share_token, share_token);
    assert.notEqual((await sdk.threads.share.create("thread-2", { project_id: projectId })).share_token, share_token);
    const { items } = await anonymous.public.runs.query(share_token!, { selects: ["NAME", "TRACE_ID"] });
    const turns = threadTraces(1);
    assert.deepEqual(
      items!.map((r) => r.id),
      turns.flatMap((t) => traces.get(t)!.ids),
      "every run of the thread's traces, turn by turn",
    );
    const run = await anonymous.public.runs.retrieve(traces.get(turns[2])!.ids[1], {
      share_token: share_token!,
      selects: ["NAME"],
      start_time: "",
    });
    assert.equal(run.name, "retrieve");
    const outsider = traces.get(threadTraces(0)[0])!.ids[0];
    assert.equal((await call({ url: server.url, apiKey: "" }, "GET", `/api/v2/public/${share_token}/run/${outsider}`)).status, 404);
    const missing = await call(server, "POST", `/api/v2/threads/no-such-thread/share`, { project_id: projectId });
    assert.equal(missing.status, 404);
    await sdk.threads.share.delete("thread-1", { project_id: projectId });
    await sdk.threads.share.delete("thread-1", { project_id: projectId });
    assert.equal((await call({ url: server.url, apiKey: "" }, "POST", `/api/v2/public/${share_token}/runs/query`, {})).status, 404);
    assert.deepEqual(await sdk.threads.share.retrieve("thread-1", { project_id: projectId }), {});
  });

  test("sessions.dashboard: the project's prebuilt charts over a range, by the hour", async () => {
    const now = Date.now();
    const dashboard = await sdk.sessions.dashboard(projectId, {
      start_time: new Date(now - 3 * 3_600_000).toISOString(),
      end_time: new Date(now + 3_600_000).toISOString(),
      stride: { hours: 1 },
    });
    assert.equal(dashboard.session_id, projectId);
    const chart = (id: string) => dashboard.charts.find((c) => c.id === id) as { data: { series_id: string; value: unknown }[] };
    const total = (id: string, series: string) =>
      chart(id)
        .data.filter((d) => d.series_id === series)
        .reduce((n, d) => n + Number(d.value ?? 0), 0);
    assert.equal(total("traces", "run_count"), traces.size);
    assert.equal(total("traces", "error_count"), [...traces.values()].filter((t) => t.errored).length);
    assert.equal(
      total("tokens", "total_tokens"),
      [...traces.values()].reduce((n, t) => n + t.tokens, 0),
    );
    assert.ok(chart("trace-latency").data.some((d) => d.series_id === "latency_p99" && typeof d.value === "number"));
    const empty = await sdk.sessions.dashboard(projectId, { omit_data: true });
    assert.ok(empty.charts.length >= 8 && empty.charts.every((c) => "data" in c && (c as { data: unknown[] }).data.length === 0));
    const other = await call(server, "POST", `/api/v1/sessions/${randomUUID()}/dashboard`, {});
    assert.equal(other.status, 404);
  });

  test("run keys: the classic client's feedback carries the run's project and start time, direct and batched", async () => {
    const [traceId, trace] = [...traces.entries()][11];
    const runId = trace.ids[2];
    const run = await sdk.runs.retrieve(runId, { project_id: projectId, selects: ["START_TIME"] });
    const key = { sessionId: projectId, startTime: run.start_time, traceId };
    const direct = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    await direct.createFeedback(runId, "run-key-direct", { score: 1, ...key });
    const batched = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    await batched.createFeedback(runId, "run-key-batched", { score: 0.5, ...key });
    await batched.awaitPendingTraceBatches();
    const stored = await collect(direct.listFeedback({ runIds: [runId] }));
    assert.deepEqual(stored.map((f) => [f.key, f.score]).sort(), [
      ["run-key-batched", 0.5],
      ["run-key-direct", 1],
    ]);
  });

  test("sql.query: one read-only SELECT over the project's runs, as typed columns; mistakes are 400s with a position", async () => {
    const counted = await sdk.sql.query({
      project_ids: [projectId],
      query: `SELECT run_type, count(*) AS runs, sum(total_tokens) AS tokens, max(start_time) AS last
        FROM runs WHERE start_time >= now() - interval '1 day' GROUP BY run_type ORDER BY run_type`,
    });
    assert.deepEqual(counted.columns, [
      { name: "run_type", data_type: "string" },
      { name: "runs", data_type: "integer" },
      { name: "tokens", data_type: "integer" },
      { name: "last", data_type: "timestamp" },
    ]);
    const llmTokens = [...traces.values()].reduce((sum, t) => sum + t.tokens, 0);
    assert.deepEqual(
      counted.rows!.map((row) => row.slice(0, 3)),
      [
        ["chain", TRACES, null],
        ["llm", TRACES, llmTokens],
        ["retriever", TRACES, null],
        ["tool", TRACES, null],
      ],
    );
    assert.equal(counted.is_truncated, false);
    const everything = await sdk.sql.query({
      project_ids: [projectId],
      query: "SELECT id FROM runs WHERE start_time > now() - interval '1 day'",
    });
    assert.equal(everything.row_count, 1000);
    assert.equal(everything.is_truncated, false, "exactly the row limit is not truncated");
    const bad = await call(server, "POST", "/api/v2/sql/query", { project_ids: [projectId], query: "SELECT count(*) FROM runs" });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /start_time lower bound.*at character 22/);
    const other = await call(server, "POST", "/api/v2/sql/query", { project_ids: [randomUUID()], query: "SELECT 1" });
    assert.equal(other.status, 404);
  });

  test("sql.query refuses at once what it cannot bound: NUL, an infinite start_time, deep nesting, joined arrays", async () => {
    const array = `'${JSON.stringify(Array.from({ length: 400 }, (_, i) => i))}'`;
    for (const [query, detail] of [
      ["SELECT 1 -- \u0000", /U\+0000 \(a NUL character\) at character 13/],
      ["SELECT count(*) FROM runs WHERE start_time >= '-infinity'", /start_time bound must be a finite time/],
      [`SELECT 1 ${"+1".repeat(33_000)}`, /at most 1,000 operators, keywords and opening brackets/],
      [
        `SELECT count(*) FROM json_array_elements_text(${array}) a, json_array_elements_text(${array}) b`,
        /At most one set-returning function/,
      ],
    ] as const) {
      const started = Date.now();
      // A 400 is not retried by the client (a 503 would be, for minutes).
      await assert.rejects(
        sdk.sql.query({ project_ids: [projectId], query }),
        (error: { status?: number; message?: string }) => error.status === 400 && detail.test(String(error.message)),
      );
      assert.ok(Date.now() - started < 5_000, `${detail}: answered after ${Date.now() - started} ms`);
    }
  });
});
