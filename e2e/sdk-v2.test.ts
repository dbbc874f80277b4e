/**
 * The langsmith 0.12 client's next API (its `resources/`): `runs.query` paged to the end of a
 * 1,000-run project, with filters, a dataset's experiments, `runs.retrieve`, `runs.getURL`,
 * `traces.query` with each trace's totals and `traces.listRuns`, threads, projects and the streamed
 * variants, checked against what was ingested. Sharing, the dashboard, run keys and SQL:
 * sdk-v2-share-sql.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { call, collect } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";
import { seedV2Project, threadTraces as threadOf, TRACES, type SeededTrace } from "./harness/v2-project";

describe("the client's v2 runs and traces API", () => {
  let server: RunningServer;
  let sdk: Langsmith;
  let projectName: string;
  let projectId: string;
  /** trace id → its runs' ids (root first) and its LLM run's tokens. */
  let traces: Map<string, SeededTrace>;

  before(async () => {
    server = await startServer();
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
    ({ projectName, projectId, traces } = await seedV2Project(server));
  });
  after(async () => server?.stop());

  const threadTraces = (n: number) => threadOf(traces, n);

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
