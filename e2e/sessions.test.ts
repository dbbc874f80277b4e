import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("projects (sessions) with the real langsmith client", () => {
  let server: RunningServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  after(async () => server?.stop());

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

  test("createProject, then 409 on the same name, and upsert returns the same project", async () => {
    const name = unique("e2e-proj");
    const created = await client.createProject({ projectName: name, description: "first", metadata: { team: "search" } });
    assert.equal(created.name, name);
    assert.equal(created.tenant_id, server.workspaceId);
    assert.equal(created.reference_dataset_id, null);
    await assert.rejects(
      client.createProject({ projectName: name }),
      (e: Error & { status?: number }) => e.name === "LangSmithConflictError" && e.status === 409,
    );
    const again = await client.createProject({ projectName: name, upsert: true, description: "second" });
    assert.equal(again.id, created.id);
    assert.equal(again.description, "second");
  });

  test("readProject by name and id, with statistics once runs arrive", async () => {
    const name = unique("e2e-read");
    const root = new RunTree({ name: "agent", run_type: "chain", inputs: { q: "x" }, client, project_name: name });
    await root.postRun();
    const llm = root.createChild({ name: "llm", run_type: "llm", inputs: { q: "x" } });
    await llm.postRun();
    await llm.end({ usage_metadata: { input_tokens: 8, output_tokens: 2, total_tokens: 10 } });
    await llm.patchRun();
    await root.end({ a: "y" });
    await root.patchRun();
    await client.awaitPendingTraceBatches();
    const withStats = await eventually(async () => {
      const p = await client.readProject({ projectName: name, includeStats: true }).catch(() => null);
      return p && p.run_count === 1 && p.total_tokens === 10 ? p : null;
    });
    assert.ok(typeof withStats.latency_p50 === "number");
    assert.ok(withStats.last_run_start_time);
    const byId = await client.readProject({ projectId: withStats.id });
    assert.equal(byId.name, name);
    assert.equal((await call(server, "GET", `/sessions/${randomUUID()}`)).status, 404);
    await assert.rejects(client.readProject({ projectName: unique("missing") }), /not found/);
  });

  test("listProjects by name, name_contains and ids; /sessions?limit=1 gives the tenant", async () => {
    const prefix = unique("e2e-list");
    const a = await client.createProject({ projectName: `${prefix}-a` });
    const b = await client.createProject({ projectName: `${prefix}-b` });
    const names = async (options: NonNullable<Parameters<Client["listProjects"]>[0]>) => {
      const out: string[] = [];
      for await (const p of client.listProjects(options)) out.push(String(p.name));
      return out.sort();
    };
    assert.deepEqual(await names({ nameContains: prefix }), [`${prefix}-a`, `${prefix}-b`]);
    assert.deepEqual(await names({ name: `${prefix}-b` }), [`${prefix}-b`]);
    assert.deepEqual(await names({ projectIds: [a.id, b.id] }), [`${prefix}-a`, `${prefix}-b`]);
    const first = await call(server, "GET", "/sessions?limit=1&offset=0");
    assert.equal(first.status, 200);
    assert.ok(Array.isArray(first.body) && first.body.length === 1);
    assert.equal(first.body[0].tenant_id, server.workspaceId);
  });

  test("updateProject keeps what it does not change", async () => {
    const p = await client.createProject({ projectName: unique("e2e-upd"), description: "keep me" });
    const end = new Date("2026-05-01T00:00:00Z");
    const updated = await client.updateProject(p.id, { endTime: end.toISOString() });
    assert.equal(updated.description, "keep me");
    assert.equal(updated.end_time, "2026-05-01T00:00:00.000000Z");
  });

  test("a project's trace retention: set by PATCH, kept by the client's updateProject, a bad tier is a 400", async () => {
    const project = await client.createProject({ projectName: unique("retained") });
    const set = await call(server, "PATCH", `/sessions/${project.id}`, { trace_tier: "shortlived", long_lived_retention_days: 90 });
    assert.equal(set.status, 200);
    assert.deepEqual([set.body.trace_tier, set.body.long_lived_retention_days], ["shortlived", 90]);
    await client.updateProject(project.id, { description: "renamed nothing" });
    const read = (await client.readProject({ projectId: project.id })) as unknown as Record<string, unknown>;
    assert.deepEqual([read.trace_tier, read.long_lived_retention_days], ["shortlived", 90]);
    const bad = await call(server, "PATCH", `/sessions/${project.id}`, { trace_tier: "weekly" });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /trace_tier/);
  });

  test("deleteProject removes the project and its runs", async () => {
    const name = unique("e2e-del");
    const run = new RunTree({ name: "doomed", run_type: "chain", inputs: {}, client, project_name: name });
    await run.postRun();
    await run.end({});
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    await eventually(async () => (await call(server, "GET", `/runs/${run.id}`)).status === 200);
    await client.deleteProject({ projectName: name });
    assert.equal(await client.hasProject({ projectName: name }), false);
    assert.equal((await call(server, "GET", `/runs/${run.id}`)).status, 404);

    const other = await client.createProject({ projectName: unique("e2e-del2") });
    const bulk = await call(server, "DELETE", `/sessions?session_ids=${other.id}`);
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.projects, 1);
    assert.equal((await call(server, "DELETE", `/sessions?session_ids=${other.id}`)).status, 404);
  });

  test("saved chart sets through the API", async () => {
    const created = await call(server, "POST", "/charts/sets", {
      name: unique("dash"),
      sections: [{ title: "Volume", charts: [{ title: "Runs", metrics: ["run_count", "error_rate"] }] }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    const bad = await call(server, "POST", "/charts/sets", {
      name: unique("bad"),
      sections: [{ title: "s", charts: [{ title: "c", filter: "eq(name," }] }],
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /Invalid filter at position 8/);
    const patched = await call(server, "PATCH", `/charts/sets/${id}`, { description: "team dashboard" });
    assert.equal(patched.body.description, "team dashboard");
    const rendered = await call(server, "POST", `/charts/sets/${id}/render`, { bucket: "1d" });
    assert.equal(rendered.status, 200);
    assert.equal(rendered.body.sections[0].charts[0].data.bucket_seconds, 86_400);
    assert.equal((await call(server, "DELETE", `/charts/sets/${id}`)).status, 200);
    assert.equal((await call(server, "GET", `/charts/sets/${id}`)).status, 404);
  });
});
