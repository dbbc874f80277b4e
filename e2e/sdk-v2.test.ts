/**
 * The langsmith 0.12 client's next API (its `resources/`): `runs.query` paged to the end of a
 * 1,000-run project, with filters, a dataset's experiments, `runs.retrieve`, `runs.getURL`,
 * `traces.query` with each trace's totals and `traces.listRuns`, checked against what was ingested.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const TRACES = 250;

describe("the client's v2 runs and traces API", () => {
  let server: RunningServer;
  let sdk: Langsmith;
  let projectId: string;
  const projectName = `v2-${randomUUID().slice(0, 8)}`;
  /** trace id → its runs' ids (root first) and its LLM run's tokens. */
  const traces = new Map<string, { ids: string[]; tokens: number; errored: boolean }>();

  before(async () => {
    server = await startServer();
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
    const base = Date.now() - 3_600_000;
    const post: Record<string, unknown>[] = [];
    for (let t = 0; t < TRACES; t++) {
      const root = randomUUID();
      const start = (ms: number) => new Date(base + t * 1000 + ms).toISOString();
      const kids = [randomUUID(), randomUUID(), randomUUID()];
      const tokens = 10 + t;
      const errored = t % 10 === 0;
      traces.set(root, { ids: [root, ...kids], tokens, errored });
      post.push({
        id: root,
        trace_id: root,
        name: "agent",
        run_type: "chain",
        session_name: projectName,
        start_time: start(0),
        end_time: start(900),
        inputs: { t },
        outputs: { ok: true },
        ...(errored ? { error: "boom" } : {}),
        ...(t < 30 ? { extra: { metadata: { thread_id: `thread-${t % 3}` } } } : {}),
      });
      post.push({
        id: kids[0],
        trace_id: root,
        parent_run_id: root,
        name: "retrieve",
        run_type: "retriever",
        session_name: projectName,
        start_time: start(10),
        end_time: start(100),
        inputs: { q: t },
        outputs: {},
      });
      post.push({
        id: kids[1],
        trace_id: root,
        parent_run_id: root,
        name: "ChatOpenAI",
        run_type: "llm",
        session_name: projectName,
        start_time: start(200),
        end_time: start(800),
        inputs: { messages: [{ role: "user", content: `question ${t}` }] },
        outputs: {
          choices: [{ message: { role: "assistant", content: "answer" } }],
          usage_metadata: { input_tokens: tokens - 5, output_tokens: 5, total_tokens: tokens },
        },
        extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
      });
      post.push({
        id: kids[2],
        trace_id: root,
        parent_run_id: root,
        name: "format",
        run_type: "tool",
        session_name: projectName,
        start_time: start(850),
        end_time: start(880),
        inputs: {},
        outputs: {},
      });
    }
    for (let i = 0; i < post.length; i += 500)
      assert.equal((await call(server, "POST", "/runs/batch", { post: post.slice(i, i + 500) })).status, 202);
    projectId = (await call(server, "GET", `/sessions?name=${projectName}`)).body[0].id;
  });
  after(async () => server?.stop());

  /** The traces of one thread (the first 30 traces take turns in three threads), oldest first. */
  const threadTraces = (n: number) => [...traces.keys()].slice(0, 30).filter((_, t) => t % 3 === n);

  test("runs.query pages to the end of a 1,000-run project: every run once, newest first, the fields selected", async () => {
    const runs = await collect(
      sdk.runs.query({ project_ids: [projectId], selects: ["NAME", "RUN_TYPE", "START_TIME", "TRACE_ID"], page_size: 100 }),
    );
    assert.equal(runs.length, TRACES * 4);
    assert.equal(new Set(runs.map((r) => r.id)).size, TRACES * 4);
    const all = new Set([...traces.values()].flatMap((t) => t.ids));
    assert.ok(runs.every((r) => all.has(r.id!)));
    const starts = runs.map((r) => Date.parse(r.start_time!));
    assert.ok(
      starts.every((s, i) => i === 0 || s <= starts[i - 1]),
      "newest first",
    );
    assert.deepEqual(Object.keys(runs[0]).sort(), ["id", "name", "run_type", "start_time", "trace_id"]);
    const onlyIds = await sdk.runs.query({ project_ids: [projectId], page_size: 5 });
    assert.deepEqual(Object.keys(onlyIds.items[0]), ["id"], "no selects: the id only");
  });

  test("runs.query filters: root runs, run type, the filter language, errors, one trace, ids, a time window", async () => {
    const count = async (params: Record<string, unknown>) =>
      (await collect(sdk.runs.query({ project_ids: [projectId], page_size: 100, ...params }))).length;
    assert.equal(await count({ is_root: true }), TRACES);
    assert.equal(await count({ run_type: "llm" }), TRACES);
    assert.equal(
      await count({ filter: 'and(eq(run_type, "llm"), gt(total_tokens, 200))' }),
      [...traces.values()].filter((t) => t.tokens > 200).length,
    );
    assert.equal(await count({ has_error: true }), [...traces.values()].filter((t) => t.errored).length);
    const [traceId, trace] = [...traces.entries()][7];
    assert.equal(await count({ trace_id: traceId }), 4);
    assert.equal(await count({ ids: trace.ids.slice(0, 2) }), 2);
    assert.equal(await count({ min_start_time: new Date(Date.now() - 60_000).toISOString() }), 0, "nothing in the last minute");
    const refused = await call(server, "POST", "/api/v2/runs/query", { page_size: 5 });
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /exactly one of project_ids and reference_dataset_id/);
    const semantic = await call(server, "POST", "/api/v2/runs/query", { project_ids: [projectId], ai_search: "angry users" });
    assert.equal(semantic.status, 400);
    const unknown = randomUUID();
    const elsewhere = await call(server, "POST", "/api/v2/runs/query", { project_ids: [projectId, unknown] });
    assert.equal(elsewhere.status, 404, "a project that is not this workspace's is a 404, as everywhere else");
    assert.equal(elsewhere.body.detail, `Project (session) ${unknown} not found.`);
  });

  test("runs.query over a dataset's experiments (reference_dataset_id)", async () => {
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const dataset = await client.createDataset(`v2-ds-${randomUUID().slice(0, 8)}`);
    const experiment = await client.createProject({ projectName: `v2-exp-${randomUUID().slice(0, 8)}`, referenceDatasetId: dataset.id });
    const id = randomUUID();
    await client.createRun({
      id,
      name: "target",
      run_type: "chain",
      project_name: experiment.name,
      inputs: {},
      outputs: {},
      end_time: Date.now(),
    });
    await client.awaitPendingTraceBatches();
    const runs = await collect(sdk.runs.query({ reference_dataset_id: dataset.id, selects: ["PROJECT_ID"] }));
    assert.deepEqual(
      runs.map((r) => [r.id, r.project_id]),
      [[id, experiment.id]],
    );
  });

  test("runs.retrieve and runs.getURL", async () => {
    const [traceId, trace] = [...traces.entries()][3];
    const llm = await sdk.runs.retrieve(trace.ids[2], {
      project_id: projectId,
      selects: ["NAME", "TOTAL_TOKENS", "INPUTS", "PARENT_RUN_IDS", "IS_ROOT"],
    });
    assert.equal(llm.name, "ChatOpenAI");
    assert.equal(llm.total_tokens, trace.tokens);
    assert.deepEqual(llm.parent_run_ids, [traceId]);
    assert.equal(llm.is_root, false);
    assert.deepEqual((llm.inputs as any).messages[0].content, "question 3");
    const elsewhere = await call(server, "GET", `/api/v2/runs/${trace.ids[2]}?project_id=${randomUUID()}`);
    assert.equal(elsewhere.status, 404);
    const { url } = await sdk.runs.getURL(trace.ids[2], { project_id: projectId, trace_id: traceId });
    assert.equal(url, `${server.url}/o/${server.workspaceId}/projects/p/${projectId}/r/${trace.ids[2]}`);
  });

  test("traces.query: one row per trace, its root and its totals; narrowed to some traces; traces.listRuns", async () => {
    const rows = await collect(sdk.traces.query({ project_id: projectId, selects: ["NAME", "TRACE_ID"], page_size: 40 }));
    assert.equal(rows.length, TRACES);
    for (const row of rows) {
      const trace = traces.get(row.root_run!.id!)!;
      assert.equal(row.root_run!.name, "agent");
      assert.equal(row.trace_aggregates!.total_tokens, trace.tokens, "the trace's tokens are its LLM run's");
    }
    const some = [...traces.keys()].slice(0, 3);
    const narrowed = await collect(sdk.traces.query({ project_id: projectId, trace_ids: some }));
    assert.deepEqual(narrowed.map((r) => r.root_run!.id).sort(), [...some].sort());
    const errored = await collect(sdk.traces.query({ project_id: projectId, trace_filter: 'eq(status, "error")' }));
    assert.equal(errored.length, [...traces.values()].filter((t) => t.errored).length);

    const [traceId, trace] = [...traces.entries()][5];
    const { items } = await sdk.traces.listRuns(traceId, { project_id: projectId, selects: ["NAME", "START_TIME"] });
    assert.deepEqual(
      items!.map((r) => r.id),
      trace.ids,
      "every run of the trace, oldest first",
    );
  });

  test("threads.query, threads.listTraces (paged, turn numbers) and threads.stats", async () => {
    const threads = await collect(sdk.threads.query({ project_id: projectId, page_size: 2 }));
    assert.deepEqual(threads.map((t) => t.thread_id).sort(), ["thread-0", "thread-1", "thread-2"]);
    assert.ok(threads.every((t) => t.count === 10));
    const zero = threadTraces(0);
    const turns = await collect(
      sdk.threads.listTraces("thread-0", { project_id: projectId, page_size: 4, selects: ["TURN_NUMBER", "TOTAL_TOKENS"] }),
    );
    assert.deepEqual(
      turns.map((t) => t.trace_id),
      zero,
    );
    assert.deepEqual(
      turns.map((t) => t.turn_number),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    const stats = await sdk.threads.stats("thread-0", { session_id: projectId, selects: ["TURNS", "TOTAL_TOKENS", "FIRST_START_TIME"] });
    assert.equal(stats.turns, 10);
    assert.equal(
      stats.total_tokens,
      zero.reduce((n, id) => n + traces.get(id)!.tokens, 0),
    );
    assert.ok(stats.first_start_time);
    assert.equal(stats.latency_p50_seconds, undefined, "only what was selected");
    const aggregate = await sdk.threads.aggregateStats({
      project_id: projectId,
      select: ["THREAD_COUNT", "TRACE_COUNT", "TOTAL_TOKENS", "LATENCY_P50"],
      min_start_time: new Date(Date.now() - 86_400_000).toISOString(),
    });
    assert.equal(aggregate.thread_count, 3);
    assert.equal(aggregate.trace_count, 30, "the traces that belong to a thread");
    assert.equal(
      aggregate.total_tokens,
      [0, 1, 2].flatMap(threadTraces).reduce((n, id) => n + traces.get(id)!.tokens, 0),
    );
    assert.ok((aggregate.latency_p50_seconds ?? 0) > 0);
  });

  test("sessions.listV2 pages the projects and experiments; sessions.resolve an experiment's address", async () => {
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    const name = `v2-created-${randomUUID().slice(0, 8)}`;
    const created = await sdk.sessions.create({ name, description: "first" });
    const again = await sdk.sessions.create({ name, description: "second", upsert: true });
    assert.equal(again.id, created.id, "upsert answers the project of that name");
    assert.equal(again.description, "second");
    assert.equal((await sdk.sessions.retrieve(created.id, {})).name, name);
    const dataset = await client.createDataset(`v2-resolve-${randomUUID().slice(0, 8)}`);
    const experiment = await client.createProject({
      projectName: `v2-resolve-exp-${randomUUID().slice(0, 8)}`,
      referenceDatasetId: dataset.id,
    });
    const all = await collect(sdk.sessions.listV2({ page_size: 1 }));
    assert.ok(all.some((s) => s.id === projectId && s.type === "PROJECT"));
    assert.ok(all.some((s) => s.id === experiment.id && s.type === "EXPERIMENT"));
    assert.equal(new Set(all.map((s) => s.id)).size, all.length, "each once across pages");
    const experiments = await collect(sdk.sessions.listV2({ type: ["EXPERIMENT"] }));
    assert.ok(experiments.every((s) => s.type === "EXPERIMENT"));
    const named = await collect(sdk.sessions.listV2({ name: projectName, include_stats: true }));
    assert.equal(named[0].run_count, TRACES, "its traces");

    assert.deepEqual(await sdk.sessions.resolve({ kind: "EXPERIMENT", id: experiment.id }), { session_id: experiment.id });
    const datasets = await collect(sdk.datasets.listV2({ page_size: 1 }));
    assert.ok(datasets.some((d) => d.id === dataset.id && d.name === dataset.name));
    assert.equal(new Set(datasets.map((d) => d.id)).size, datasets.length);
    const project = await call(server, "GET", `/api/v1/sessions/resolutions?kind=EXPERIMENT&id=${projectId}`);
    assert.equal(project.status, 404, "a tracing project is not an experiment");
    assert.equal((await call(server, "GET", "/api/v1/sessions/resolutions?kind=AGENT&id=bot&environment=PRODUCTION")).status, 404);
  });

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

  test("the streamed variants: runs, traces and threads as JSON Patch events, followed across pages", async () => {
    const runs = await collect(sdk.runs.streaming.queryV2Items({ project_ids: [projectId], selects: ["NAME"], page_size: 100 }));
    assert.equal(runs.length, TRACES * 4);
    assert.equal(new Set(runs.map((r) => r.id)).size, TRACES * 4);
    const roots = await collect(sdk.traces.streaming.queryItems({ project_id: projectId, page_size: 100 }));
    assert.equal(roots.length, TRACES);
    const threads = await collect(sdk.threads.streaming.queryItems({ project_id: projectId, page_size: 2 }));
    assert.equal(threads.length, 3);
  });
});
