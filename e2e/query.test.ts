import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("querying runs with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  const project = `e2e-query-${randomUUID().slice(0, 8)}`;
  let projectId: string;
  const roots: RunTree[] = [];
  let llm: RunTree;
  let failing: RunTree;

  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    for (let i = 0; i < 3; i++) {
      const root = new RunTree({
        name: `agent-${i}`,
        run_type: "chain",
        inputs: { question: i === 0 ? "what is the refund policy?" : `question ${i}` },
        client,
        project_name: project,
        tags: i === 0 ? ["vip"] : [],
        extra: { metadata: { user_id: `u${i}`, thread_id: `thread-${i % 2}` } },
      });
      await root.postRun();
      if (i === 0) {
        llm = root.createChild({
          name: "ChatOpenAI",
          run_type: "llm",
          inputs: { messages: [] },
          extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
        });
        await llm.postRun();
        await llm.end({ usage_metadata: { input_tokens: 30, output_tokens: 12, total_tokens: 42 } });
        await llm.patchRun();
        failing = root.createChild({ name: "lookup", run_type: "tool", inputs: { id: 1 } });
        await failing.postRun();
        await failing.end(undefined, "ToolError: not found");
        await failing.patchRun();
      }
      await root.end({ answer: `a${i}` });
      await root.patchRun();
      roots.push(root);
    }
    await client.awaitPendingTraceBatches();
    projectId = (await client.readProject({ projectName: project })).id;
    await eventually(async () => (await collect({ projectName: project })).length === 5);
  });
  after(async () => server?.stop());

  async function collect(params: Record<string, unknown>): Promise<any[]> {
    const out: any[] = [];
    for await (const run of client.listRuns(params as never)) out.push(run);
    return out;
  }
  const names = async (params: Record<string, unknown>) => (await collect({ projectName: project, ...params })).map((r) => r.name).sort();

  test("listRuns by project, root, type, error, trace and ids", async () => {
    const all = await collect({ projectName: project });
    const root = all.find((r) => r.id === roots[0].id);
    assert.equal(root.parent_run_id, null);
    assert.equal(root.session_id, projectId);
    assert.equal(root.start_time.replace(/[-:.Z]/g, ""), roots[0].dotted_order.split("Z")[0].replace(/[-:.]/g, ""));
    assert.deepEqual(await names({ isRoot: true }), ["agent-0", "agent-1", "agent-2"]);
    assert.deepEqual(await names({ runType: "llm" }), ["ChatOpenAI"]);
    assert.deepEqual(await names({ error: true }), ["lookup"]);
    assert.deepEqual(await names({ traceId: roots[0].id }), ["ChatOpenAI", "agent-0", "lookup"]);
    assert.deepEqual((await collect({ id: [roots[1].id, llm.id] })).map((r) => r.name).sort(), ["ChatOpenAI", "agent-1"]);
    const stored = (await collect({ id: [llm.id] }))[0];
    assert.equal(stored.total_tokens, 42);
    assert.deepEqual(stored.parent_run_ids, [roots[0].id]);
  });

  test("listRuns with the filter language, trace_filter and tree_filter", async () => {
    assert.deepEqual(await names({ filter: 'and(eq(metadata_key, "user_id"), eq(metadata_value, "u1"))' }), ["agent-1"]);
    assert.deepEqual(await names({ filter: 'has(tags, "vip")' }), ["agent-0"]);
    assert.deepEqual(await names({ filter: 'search("refund")' }), ["agent-0"]);
    assert.deepEqual(await names({ filter: 'and(eq(run_type, "llm"), gt(total_tokens, 40))' }), ["ChatOpenAI"]);
    assert.deepEqual(await names({ filter: "neq(error, null)" }), ["lookup"]);
    assert.deepEqual(await names({ isRoot: true, treeFilter: 'eq(run_type, "llm")' }), ["agent-0"]);
    assert.deepEqual(await names({ runType: "tool", traceFilter: 'has(tags, "vip")' }), ["lookup"]);
  });

  test("cursor pagination through the SDK returns every run once", async () => {
    const many = `e2e-many-${randomUUID().slice(0, 8)}`;
    const start = Date.now() - 60_000;
    const post = Array.from({ length: 230 }, (_, i) => ({
      id: randomUUID(),
      name: `r${i}`,
      run_type: "chain",
      session_name: many,
      start_time: new Date(start + i).toISOString(),
      end_time: new Date(start + i + 5).toISOString(),
      inputs: {},
      outputs: {},
    }));
    assert.equal((await call(server, "POST", "/runs/batch", { post })).status, 202);
    const ids = await eventually(async () => {
      const runs = await collect({ projectName: many });
      return runs.length === 230 ? runs.map((r) => r.id) : null;
    }, 30_000);
    assert.equal(new Set(ids).size, 230);
    assert.equal((await collect({ projectName: many, limit: 7 })).length, 7);
    const page = await call(server, "POST", "/runs/query", { session: [(await client.readProject({ projectName: many })).id], limit: 100 });
    assert.equal(page.body.runs.length, 100);
    assert.equal(typeof page.body.cursors.next, "string");
  });

  test("a malformed filter is a 400 that points at the position", async () => {
    const r = await call(server, "POST", "/runs/query", { session: [projectId], filter: 'eq(name, "x" "y")' });
    assert.equal(r.status, 400);
    assert.equal(r.body.detail, 'Invalid filter at position 13: expected ")" but found "\\"y\\""');
    const badCursor = await call(server, "POST", "/runs/query", { session: [projectId], cursor: "nope" });
    assert.equal(badCursor.status, 400);
  });

  test("getRunStats and threads", async () => {
    const stats = await client.getRunStats({ projectNames: [project] });
    assert.equal(stats.run_count, 5);
    assert.equal(stats.total_tokens, 42);
    assert.equal(stats.error_rate, 0.2);
    const rootsOnly = await client.getRunStats({ projectIds: [projectId], isRoot: true, filter: 'has(tags, "vip")' });
    assert.equal(rootsOnly.run_count, 1);
    const threads: any[] = [];
    for await (const t of client.listGroupRuns({ projectId, groupBy: "conversation" })) threads.push(t);
    assert.deepEqual(threads.map((t) => [t.thread_id, t.count]).sort(), [
      ["thread-0", 2],
      ["thread-1", 1],
    ]);
    const t0 = threads.find((t) => t.thread_id === "thread-0");
    assert.equal(t0.total_tokens, 42);
    assert.equal(t0.filter, 'eq(thread_id, "thread-0")');
  });

  test("charts for the project and the workspace", async () => {
    const range = { start_time: new Date(Date.now() - 3_600_000).toISOString(), end_time: new Date(Date.now() + 60_000).toISOString() };
    const chart = await call(server, "POST", `/sessions/${projectId}/charts`, {
      ...range,
      metrics: ["run_count", "total_tokens"],
      group_by: { attribute: "run_type" },
    });
    assert.equal(chart.status, 200, JSON.stringify(chart.body));
    const count = (type: string) =>
      chart.body.series.find((s: any) => s.metric === "run_count" && s.group === type).values.reduce((a: number, b: number) => a + b, 0);
    assert.equal(count("chain"), 3);
    assert.equal(count("llm"), 1);
    const workspace = await call(server, "POST", "/charts", { ...range, metrics: ["run_count"], filter: 'eq(run_type, "llm")' });
    assert.equal(workspace.status, 200);
    assert.ok(workspace.body.series[0].values.reduce((a: number, b: number) => a + b, 0) >= 1);
    const missing = await call(server, "POST", `/sessions/${randomUUID()}/charts`, range);
    assert.equal(missing.status, 404);
  });
});
