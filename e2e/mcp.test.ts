/**
 * The MCP server at /mcp through the SDK's own client (Client + StreamableHTTPClientTransport)
 * against the built server: tools listed, each called on real data sent with the langsmith SDK,
 * a viewer key refused on writes, another workspace's ids not found, no key refused.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client } from "langsmith";
import { newUser, ui } from "./harness/auth";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

async function connect(url: string, headers: Record<string, string>): Promise<McpClient> {
  const client = new McpClient({ name: "tracelight-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

const callTool = async (client: McpClient, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;

/** The tool's JSON answer, failing with its message when it is an error. */
async function ok(client: McpClient, name: string, args: Record<string, unknown>) {
  const answer = await callTool(client, name, args);
  assert.ok(!answer.isError, `${name}: ${answer.content[0]?.text}`);
  assert.deepEqual(JSON.parse(answer.content[0].text), answer.structuredContent);
  return answer.structuredContent;
}

describe("MCP server at /mcp", () => {
  let server: RunningServer;
  let admin: McpClient;
  let viewer: McpClient;
  let other: McpClient;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    const sdk = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    const suffix = randomUUID().slice(0, 6);
    ids.projectName = `mcp-${suffix}`;
    const project = await sdk.createProject({ projectName: ids.projectName });
    ids.project = project.id;
    ids.root = randomUUID();
    ids.child = randomUUID();
    const start = Date.now();
    await sdk.createRun({
      id: ids.root,
      name: "answer-question",
      run_type: "chain",
      inputs: { question: "What is the refund policy?", padding: "x".repeat(10_000) },
      outputs: { answer: "Thirty days." },
      project_name: ids.projectName,
      start_time: start,
      end_time: start + 1500,
      extra: { metadata: { thread_id: "thread-1" } },
    } as never);
    await sdk.createRun({
      id: ids.child,
      name: "call-model",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "What is the refund policy?" }] },
      outputs: { generations: [[{ text: "Thirty days." }]] },
      parent_run_id: ids.root,
      project_name: ids.projectName,
      start_time: start + 100,
      end_time: start + 1400,
    } as never);
    await eventually(async () => (await call(server, "GET", `/runs/${ids.child}`)).status === 200);
    const dataset = await sdk.createDataset(`mcp-dataset-${suffix}`);
    ids.dataset = dataset.id;
    ids.example = (await sdk.createExample({ question: "2+2?" }, { answer: "4" }, { datasetId: dataset.id })).id;
    const experiment = await sdk.createProject({ projectName: `mcp-experiment-${suffix}`, referenceDatasetId: dataset.id });
    ids.experiment = experiment.id;
    ids.experimentRun = randomUUID();
    await sdk.createRun({
      id: ids.experimentRun,
      name: "target",
      run_type: "chain",
      inputs: { question: "2+2?" },
      outputs: { answer: "4" },
      reference_example_id: ids.example,
      project_name: experiment.name,
      start_time: start,
      end_time: start + 200,
    } as never);
    await eventually(async () => (await call(server, "GET", `/runs/${ids.experimentRun}`)).status === 200);
    await sdk.createFeedback(ids.experimentRun, "correctness", { score: 1 });

    const viewerKey = await call(server, "POST", "/api-key", { kind: "service", role: "viewer", description: "mcp viewer" });
    assert.equal(viewerKey.status, 201, JSON.stringify(viewerKey.body));
    const bea = await newUser(server.url, "bea-mcp@example.com", "bea-password-1", "Bea");
    const beaKey = await ui(bea, "POST", "/api-key", { kind: "service", description: "b" });
    assert.equal(beaKey.status, 201, JSON.stringify(beaKey.body));

    admin = await connect(server.url, { "X-API-Key": server.apiKey });
    viewer = await connect(server.url, { Authorization: `Bearer ${viewerKey.body.key}` });
    other = await connect(server.url, { "X-API-Key": beaKey.body.key });
  });

  after(async () => {
    await Promise.all([admin, viewer, other].map((c) => c?.close()));
    await server?.stop();
  });

  test("lists its tools, each with a description and an input schema", async () => {
    const { tools } = await admin.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      "add_feedback",
      "get_thread",
      "get_trace",
      "list_datasets",
      "list_experiments",
      "list_projects",
      "pull_prompt",
      "push_prompt",
      "read_dataset",
      "read_experiment",
      "run_sql",
      "search_runs",
    ]);
    for (const tool of tools) {
      assert.ok((tool.description ?? "").length > 40, `${tool.name} is described`);
      assert.equal(tool.inputSchema.type, "object");
    }
    assert.equal(tools.find((t) => t.name === "push_prompt")!.annotations?.readOnlyHint, false);
    assert.equal(tools.find((t) => t.name === "search_runs")!.annotations?.readOnlyHint, true);
  });

  test("list_projects, search_runs, get_trace and get_thread read the workspace's traces", async () => {
    const { projects } = await ok(admin, "list_projects", { name_contains: ids.projectName });
    assert.deepEqual(
      projects.map((p: { id: string }) => p.id),
      [ids.project],
    );
    assert.equal(typeof projects[0].run_count, "number", "with statistics");

    const found = await ok(admin, "search_runs", { project: ids.projectName, filter: 'eq(run_type, "llm")' });
    assert.deepEqual(
      found.runs.map((r: { id: string }) => r.id),
      [ids.child],
    );
    const roots = await ok(admin, "search_runs", { project: ids.project, is_root: true, max_chars_per_field: 100 });
    assert.equal(roots.runs.length, 1);
    assert.match(roots.runs[0].inputs, /more characters cut/, "a long input is cut and says so");

    const trace = await ok(admin, "get_trace", { trace_id: ids.root, max_chars_per_field: 500 });
    assert.equal(trace.run_count, 2);
    assert.equal(trace.runs.length, 1);
    assert.equal(trace.runs[0].id, ids.root);
    assert.deepEqual(trace.runs[0].outputs, { answer: "Thirty days." });
    assert.equal(trace.runs[0].children[0].id, ids.child);
    assert.equal(trace.runs[0].children[0].inputs.messages[0].content, "What is the refund policy?");
    assert.ok(JSON.stringify(trace).length < 5_000, "the 10,000-character input is cut");

    const thread = await ok(admin, "get_thread", { project: ids.projectName, thread_id: "thread-1" });
    assert.equal(thread.turns.length, 1);
    assert.equal(thread.turns[0].trace_id, ids.root);
  });

  test("run_sql answers a read-only SELECT and refuses a write", async () => {
    const result = await ok(admin, "run_sql", {
      project_ids: [ids.project],
      query: "SELECT name FROM runs WHERE start_time > '2000-01-01' ORDER BY name",
    });
    assert.deepEqual(result.rows, [["answer-question"], ["call-model"]]);
    const write = await callTool(admin, "run_sql", { project_ids: [ids.project], query: "DELETE FROM runs" });
    assert.ok(write.isError);
  });

  test("datasets and experiments with their scores", async () => {
    const { datasets } = await ok(admin, "list_datasets", {});
    assert.ok(datasets.some((d: { id: string }) => d.id === ids.dataset));
    const read = await ok(admin, "read_dataset", { dataset_id: ids.dataset });
    assert.deepEqual(read.examples[0].inputs, { question: "2+2?" });
    await eventually(async () => {
      const { experiments } = await ok(admin, "list_experiments", { dataset_id: ids.dataset });
      return experiments.length === 1 && experiments[0].feedback_stats?.correctness?.avg === 1 ? true : undefined;
    });
    const results = await ok(admin, "read_experiment", { dataset_id: ids.dataset, experiment_id: ids.experiment });
    assert.equal(results.examples.length, 1);
    assert.equal(results.examples[0].runs[0].id, ids.experimentRun);
    assert.deepEqual(results.examples[0].runs[0].outputs, { answer: "4" });
    assert.equal(results.examples[0].runs[0].feedback_stats.correctness.avg, 1);
  });

  test("push_prompt makes the prompt and pull_prompt reads it back; add_feedback scores a run", async () => {
    const pushed = await ok(admin, "push_prompt", {
      name: "support-answer",
      messages: [
        { role: "system", content: "You answer support questions." },
        { role: "user", content: "{question}" },
      ],
      description: "first",
    });
    const hash = pushed.commit.commit_hash;
    await ok(admin, "push_prompt", { name: "support-answer", messages: [{ role: "user", content: "Q: {question}" }] });
    const latest = await ok(admin, "pull_prompt", { name: "support-answer" });
    assert.deepEqual(latest.messages, [{ role: "user", content: "Q: {question}" }]);
    const first = await ok(admin, "pull_prompt", { name: "support-answer", commit: hash.slice(0, 8) });
    assert.equal(first.messages[0].content, "You answer support questions.");

    const { feedback } = await ok(admin, "add_feedback", { run_id: ids.root, key: "helpfulness", score: 0.5, comment: "ok" });
    assert.equal(feedback.run_id, ids.root);
    const stored = await call(server, "GET", `/feedback/${feedback.id}`);
    assert.equal(stored.body.score, 0.5);
  });

  test("a viewer's key reads but is refused on writes", async () => {
    const { projects } = await ok(viewer, "list_projects", { name_contains: ids.projectName });
    assert.equal(projects.length, 1);
    for (const [name, args] of [
      ["push_prompt", { name: "viewer-prompt", messages: [{ role: "user", content: "hi" }] }],
      ["add_feedback", { run_id: ids.root, key: "k", score: 1 }],
    ] as const) {
      const refused = await callTool(viewer, name, args);
      assert.ok(refused.isError, name);
      assert.match(refused.content[0].text, /viewer/);
    }
    assert.equal((await call(server, "GET", "/repos/-/viewer-prompt")).status, 404, "nothing was made");
  });

  test("another workspace's ids are not found, and its lists are its own", async () => {
    for (const [name, args] of [
      ["get_trace", { trace_id: ids.root }],
      ["get_thread", { project: ids.project, thread_id: "thread-1" }],
      ["search_runs", { project: ids.projectName }],
      ["read_dataset", { dataset_id: ids.dataset }],
      ["read_experiment", { dataset_id: ids.dataset, experiment_id: ids.experiment }],
      ["run_sql", { project_ids: [ids.project], query: "SELECT 1" }],
      ["add_feedback", { run_id: ids.root, key: "k", score: 1 }],
      ["pull_prompt", { name: "support-answer" }],
    ] as const) {
      const answer = await callTool(other, name, args);
      assert.ok(answer.isError, `${name} must fail for another workspace`);
      assert.match(answer.content[0].text, /not found|no project/i, `${name}: ${answer.content[0].text}`);
    }
    const { projects } = await ok(other, "list_projects", {});
    assert.ok(!projects.some((p: { id: string }) => p.id === ids.project));
    const { datasets } = await ok(other, "list_datasets", {});
    assert.deepEqual(datasets, []);
  });

  test("no key, or a wrong one, is a 401", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const none = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: JSON.stringify(initialize) });
    assert.equal(none.status, 401);
    assert.match((await none.json()).detail, /X-API-Key or Authorization: Bearer/);
    const wrong = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer tl_not_a_key" },
      body: JSON.stringify(initialize),
    });
    assert.equal(wrong.status, 401);
  });
});
