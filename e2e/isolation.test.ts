/**
 * The isolation matrix: workspace A's resources (project, runs, feedback, dataset, examples, chart
 * set, rule, shares, prompt) against workspace B's key and B's signed-in session, on every endpoint
 * that names them. Each is a 404 (never a 403, never data), lists never show them, writes change
 * nothing, and A still sees everything afterwards.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { newUser, ui, type Browser } from "./harness/auth";
import { call, eventually, type CallResult } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("isolation matrix: workspace B against workspace A's resources", () => {
  let server: RunningServer;
  let bea: Browser;
  let beaKey: string;
  const a: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    const client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    const project = await client.createProject({ projectName: `a-private-${randomUUID().slice(0, 6)}` });
    a.project = project.id;
    a.projectName = String(project.name);
    a.run = randomUUID();
    a.child = randomUUID();
    const start = new Date().toISOString();
    await client.createRun({
      id: a.run,
      name: "a-root",
      run_type: "chain",
      inputs: { secret: "A" },
      project_name: project.name,
      start_time: start,
    } as never);
    await client.createRun({
      id: a.child,
      name: "a-llm",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "hi" }] },
      parent_run_id: a.run,
      project_name: project.name,
    } as never);
    await eventually(async () => (await call(server, "GET", `/runs/${a.child}`)).status === 200);
    a.feedback = (await client.createFeedback(a.run, "quality", { score: 1 })).id;
    const dataset = await client.createDataset(`a-dataset-${randomUUID().slice(0, 6)}`);
    a.dataset = dataset.id;
    a.example = (await client.createExample({ q: 1 }, { a: 2 }, { datasetId: dataset.id })).id;
    const set = await call(server, "POST", "/charts/sets", {
      name: "a-dash",
      sections: [{ title: "s", charts: [{ title: "c", metrics: ["run_count"] }] }],
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    a.chartSet = set.body.id;
    const rule = await call(server, "POST", "/runs/rules", {
      display_name: "a-rule",
      session_id: a.project,
      filter: 'eq(name, "x")',
      add_feedback: { key: "k", score: 1 },
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    a.rule = rule.body.id;
    assert.equal((await call(server, "PUT", `/runs/${a.run}/share`)).status, 200);
    assert.equal((await call(server, "PUT", `/datasets/${a.dataset}/share`)).status, 200);
    a.repo = `a-prompt-${randomUUID().slice(0, 6)}`;
    assert.equal((await call(server, "POST", "/repos/", { repo_handle: a.repo, is_public: false })).status, 200);
    assert.equal((await call(server, "POST", `/commits/-/${a.repo}`, { manifest: { template: "secret" } })).status, 200);

    bea = await newUser(server.url, "bea@example.com", "bea-password-1", "Bea");
    const key = await ui(bea, "POST", "/api-key", { kind: "service", description: "b" });
    assert.equal(key.status, 201);
    beaKey = key.body.key;
  });
  after(async () => server?.stop());

  const callers: [string, (method: string, path: string, body?: unknown) => Promise<CallResult>][] = [
    ["B's API key", (method, path, body) => call({ url: server.url, apiKey: beaKey }, method, path, body)],
    ["B's session", (method, path, body) => ui(bea, method, path, body)],
  ];

  /** [method, path, body] that name one of A's resources: each must be a 404. */
  const byId = (): [string, string, unknown?][] => [
    ["GET", `/runs/${a.run}`],
    ["GET", `/runs/${a.child}`],
    ["GET", `/runs/${a.run}/conversation`],
    ["GET", `/runs/${a.child}/conversation`],
    ["GET", `/runs/${a.run}/share`],
    ["PUT", `/runs/${a.run}/share`],
    ["DELETE", `/runs/${a.run}/share`],
    ["GET", `/sessions/${a.project}`],
    ["PATCH", `/sessions/${a.project}`, { description: "hijacked" }],
    ["DELETE", `/sessions/${a.project}`],
    ["POST", `/sessions/${a.project}/charts`, {}],
    ["GET", `/feedback/${a.feedback}`],
    ["PATCH", `/feedback/${a.feedback}`, { score: 0 }],
    ["DELETE", `/feedback/${a.feedback}`],
    ["GET", `/datasets/${a.dataset}`],
    ["PATCH", `/datasets/${a.dataset}`, { description: "hijacked" }],
    ["DELETE", `/datasets/${a.dataset}`],
    ["GET", `/datasets/${a.dataset}/versions`],
    ["GET", `/datasets/${a.dataset}/share`],
    ["PUT", `/datasets/${a.dataset}/share`],
    ["DELETE", `/datasets/${a.dataset}/share`],
    ["POST", `/datasets/${a.dataset}/runs`, { run_ids: [a.run] }],
    ["GET", `/examples/${a.example}`],
    ["PATCH", `/examples/${a.example}`, { inputs: { hijacked: true } }],
    ["DELETE", `/examples/${a.example}`],
    ["POST", "/examples", { dataset_id: a.dataset, inputs: { x: 1 } }],
    ["GET", `/charts/sets/${a.chartSet}`],
    ["PATCH", `/charts/sets/${a.chartSet}`, { description: "hijacked" }],
    ["POST", `/charts/sets/${a.chartSet}/render`, {}],
    ["DELETE", `/charts/sets/${a.chartSet}`],
    ["GET", `/runs/rules/${a.rule}`],
    ["PATCH", `/runs/rules/${a.rule}`, { display_name: "hijacked" }],
    ["POST", `/runs/rules/${a.rule}/trigger`],
    ["GET", `/runs/rules/${a.rule}/logs`],
    ["DELETE", `/runs/rules/${a.rule}`],
    ["POST", "/runs/rules", { display_name: "b", session_id: a.project, add_feedback: { key: "k", score: 1 } }],
    ["GET", `/repos/-/${a.repo}`],
    ["GET", `/commits/-/${a.repo}/latest`],
  ];

  test("control: A's own key reaches every GET in the matrix (so B's 404s are not wrong paths)", async () => {
    const missing: string[] = [];
    for (const [method, path] of byId().filter(([m]) => m === "GET")) {
      const r = await call(server, method, path);
      if (r.status !== 200) missing.push(`${method} ${path} → ${r.status}`);
    }
    assert.deepEqual(missing, []);
  });

  for (const [label, as] of callers) {
    test(`${label}: every endpoint naming A's resources answers 404`, async () => {
      const wrong: string[] = [];
      for (const [method, path, body] of byId()) {
        const r = await as(method, path, body);
        if (r.status !== 404) wrong.push(`${method} ${path} → ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      }
      assert.deepEqual(wrong, [], `not 404:\n${wrong.join("\n")}`);
    });

    test(`${label}: lists, queries and stats show none of A's data`, async () => {
      const text = (r: CallResult) => JSON.stringify(r.body);
      // A's content and the ids B never used itself (B's own writes may name A's run ids, see below).
      const secrets = [
        '"secret":"A"',
        "a-root",
        "a-llm",
        "a-dataset-",
        "a-dash",
        "a-rule",
        a.projectName,
        a.project,
        a.feedback,
        a.example,
        a.chartSet,
        a.rule,
        a.repo,
      ];
      const lists: [string, string, unknown?][] = [
        ["GET", "/sessions"],
        ["GET", `/sessions?name=${a.projectName}`],
        ["GET", `/feedback?run=${a.run}`],
        ["GET", "/feedback"],
        ["GET", "/datasets"],
        ["GET", `/examples?dataset=${a.dataset}`],
        ["GET", "/charts/sets"],
        ["GET", "/runs/rules"],
        ["GET", "/repos/?limit=100&offset=0"],
        ["POST", "/runs/query", { trace: a.run }],
        ["POST", "/runs/query", { id: [a.run, a.child] }],
        ["POST", "/runs/stats", { id: [a.run, a.child] }],
      ];
      const leaks: string[] = [];
      for (const [method, path, body] of lists) {
        const r = await as(method, path, body);
        if (r.status !== 200 && r.status !== 404) leaks.push(`${method} ${path} → ${r.status} ${text(r).slice(0, 120)}`);
        if (r.status === 404) continue;
        const found = secrets.filter((s) => text(r).includes(s));
        if (found.length) leaks.push(`${method} ${path} shows ${found.join(", ")}`);
      }
      const stats = await as("POST", "/runs/stats", { session: [a.project] });
      if (stats.status === 200 && stats.body.run_count) leaks.push(`/runs/stats counts A's runs: ${text(stats)}`);
      assert.deepEqual(leaks, []);
    });

    test(`${label}: writes naming A's run ids land in B's own workspace and change nothing of A's`, async () => {
      // As in LangSmith, ingest and feedback accept run ids they have not seen yet (a patch or
      // feedback may arrive before its run): they are kept in the caller's workspace only.
      assert.ok((await as("PATCH", `/runs/${a.run}`, { end_time: new Date().toISOString(), outputs: { hijacked: true } })).status < 500);
      const feedback = await as("POST", "/feedback", { run_id: a.run, key: "hijack", score: 0 });
      assert.ok(feedback.status < 500);
      const token = await as("POST", "/feedback/tokens", { run_id: a.run, feedback_key: "hijack" });
      assert.equal(token.status, 404, "a feedback link only for a run of one's own workspace");
      const posted = await as("POST", "/runs", {
        id: a.run,
        name: "hijack",
        run_type: "chain",
        inputs: { x: 1 },
        session_name: "b-project",
      });
      assert.ok(posted.status < 500, `POST /runs → ${posted.status}`);
      await as("POST", "/runs/batch", { patch: [{ id: a.child, outputs: { hijacked: true }, end_time: new Date().toISOString() }] });
      await as("POST", "/runs", { id: randomUUID(), name: "orphan", run_type: "chain", parent_run_id: a.run, session_name: "b-project" });
    });
  }

  test("A still has everything, unchanged", async () => {
    await new Promise((r) => setTimeout(r, 500));
    const run = await call(server, "GET", `/runs/${a.run}`);
    assert.equal(run.status, 200);
    assert.equal(run.body.name, "a-root");
    assert.deepEqual(run.body.inputs, { secret: "A" });
    assert.ok(!JSON.stringify(run.body.outputs ?? {}).includes("hijacked"));
    const child = await call(server, "GET", `/runs/${a.child}`);
    assert.ok(!JSON.stringify(child.body.outputs ?? {}).includes("hijacked"));
    assert.equal((await call(server, "GET", `/sessions/${a.project}`)).body.description ?? null, null);
    assert.equal((await call(server, "GET", `/feedback/${a.feedback}`)).body.score, 1);
    const feedback = await call(server, "GET", `/feedback?run=${a.run}`);
    assert.deepEqual(
      feedback.body.map((f: { key: string }) => f.key),
      ["quality"],
      "B's feedback never reaches A's run",
    );
    assert.equal((await call(server, "GET", `/datasets/${a.dataset}`)).status, 200);
    assert.deepEqual((await call(server, "GET", `/examples/${a.example}`)).body.inputs, { q: 1 });
    assert.equal((await call(server, "GET", `/charts/sets/${a.chartSet}`)).body.description ?? null, null);
    assert.equal((await call(server, "GET", `/runs/rules/${a.rule}`)).body.display_name, "a-rule");
    assert.equal((await call(server, "GET", `/runs/${a.run}/share`)).status, 200);
    assert.equal((await call(server, "GET", `/datasets/${a.dataset}/share`)).status, 200);
    assert.equal((await call(server, "GET", `/repos/-/${a.repo}`)).status, 200);
  });
});
