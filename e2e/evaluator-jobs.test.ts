/**
 * Evaluations are durable jobs (pg-boss): a server killed in the middle of a backfill finishes it
 * after its restart with no run evaluated twice, and two app instances on one PostgreSQL share the
 * queue without ever running one job twice. The model server answers slowly, so the work is spread
 * out in time.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "langsmith";
import { startTestModelServer, type TestModelServer } from "../server/models/test-server";
import { call, eventually } from "./harness/http";
import { scratchDatabase, startServer, type RunningServer } from "./harness/server";

const FAST_LEASES = { JOB_LEASE_SECONDS: "2", JOB_MAINTENANCE_SECONDS: "1", ALLOW_PRIVATE_EGRESS: "1" };

/** A connection to the model server, an evaluator and a project of `n` finished runs from yesterday. */
async function setUp(server: RunningServer, model: TestModelServer, n: number) {
  const connection = await call(server, "POST", "/model-connections", {
    name: "judge",
    base_url: `${model.url}/v1`,
    default_model: "gpt-4o-mini",
  });
  assert.equal(connection.status, 201, JSON.stringify(connection.body));
  const evaluator = await call(server, "POST", "/api/v1/platform/evaluators", {
    name: "ok?",
    llm_evaluator: { prompt: [["user", "Is {output} fine?"]], schema: { type: "object", properties: { ok: { type: "boolean" } } } },
  });
  assert.equal(evaluator.status, 200, JSON.stringify(evaluator.body));
  const projectName = `jobs-${randomUUID().slice(0, 8)}`;
  const yesterday = Date.now() - 86_400_000;
  const ids: string[] = [];
  for (let offset = 0; offset < n; offset += 100) {
    const post = Array.from({ length: Math.min(100, n - offset) }, (_, i) => {
      const id = randomUUID();
      ids.push(id);
      const start = new Date(yesterday + (offset + i) * 1000).toISOString();
      return {
        id,
        trace_id: id,
        name: "answer",
        run_type: "chain",
        session_name: projectName,
        start_time: start,
        end_time: start,
        inputs: { i },
        outputs: { text: "fine" },
      };
    });
    assert.equal((await call(server, "POST", "/runs/batch", { post })).status, 202);
  }
  const project = await eventually(async () => {
    const found = await call(server, "GET", `/sessions?name=${projectName}&include_stats=true`);
    return found.body?.[0]?.run_count === n ? found.body[0] : null;
  });
  return { evaluatorId: evaluator.body.evaluator.id as string, projectId: project.id as string, ids };
}

/** Every evaluation happened exactly once: one log line and one feedback per run, one traced call each. */
async function assertEvaluatedOnce(server: RunningServer, ruleId: string, projectId: string, n: number) {
  const logs = (await call(server, "GET", `/runs/rules/${ruleId}/logs?limit=1000`)).body as { run_id: string; outcome: string }[];
  assert.equal(logs.length, n, "one log line per evaluation");
  assert.equal(new Set(logs.map((l) => l.run_id)).size, n);
  assert.ok(logs.every((l) => l.outcome === "success"));
  const feedback = (await call(server, "GET", `/feedback?session=${projectId}&limit=1000`)).body as { run_id: string; key: string }[];
  assert.equal(feedback.length, n, "one feedback per run");
  assert.equal(new Set(feedback.map((f) => f.run_id)).size, n);
  const evaluators = (await call(server, "GET", "/sessions?name=evaluators&include_stats=true")).body[0];
  assert.equal(evaluators.run_count, n, "one traced evaluator call per run");
}

describe(
  "a restart in the middle of a backfill",
  { skip: process.env.E2E_DATABASE_URL ? "runs once, in the embedded pass" : false },
  () => {
    let model: TestModelServer;
    let dataDir: string;
    before(async () => {
      model = await startTestModelServer();
      dataDir = await mkdtemp(path.join(tmpdir(), "tl-backfill-"));
    });
    after(async () => {
      await model?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    test("finishes it after the restart, no run evaluated twice", async () => {
      const N = 300;
      const env = { DATA_DIR: dataDir, ...FAST_LEASES };
      const first = await startServer({ env, databaseUrl: null });
      let again: RunningServer | null = null;
      try {
        const { evaluatorId, projectId } = await setUp(first, model, N);
        const rule = await call(first, "POST", "/runs/rules", {
          display_name: "backfill",
          session_id: projectId,
          evaluator_id: evaluatorId,
        });
        // Slow enough that a round of evaluations (two batches of 50 at once) outlasts several polls.
        model.chunkDelayMs = 100;
        const backfill = await call(first, "POST", `/runs/rules/${rule.body.id}/backfills`, {
          start_time: new Date(Date.now() - 2 * 86_400_000).toISOString(),
        });
        assert.equal(backfill.status, 200, JSON.stringify(backfill.body));
        assert.equal(backfill.body.runs_total, N);
        const midway = await eventually(async () => {
          const [b] = (await call(first, "GET", `/runs/rules/${rule.body.id}/backfills`)).body;
          return b.runs_evaluated >= 20 ? b : null;
        }, 60_000);
        process.kill(first.pid, "SIGKILL");
        assert.ok(midway.runs_evaluated < N, `killed midway (${midway.runs_evaluated} of ${N} evaluated)`);
        await first.stop();
        model.chunkDelayMs = 0;
        again = await startServer({ env, databaseUrl: null, existing: { apiKey: first.apiKey, workspaceId: first.workspaceId } });
        const done = await eventually(async () => {
          const [b] = (await call(again!, "GET", `/runs/rules/${rule.body.id}/backfills`)).body;
          return b.status === "completed" ? b : null;
        }, 90_000);
        assert.equal(done.runs_evaluated, N);
        assert.equal(done.progress, 1);
        const wire = (await call(again, "GET", `/runs/rules/${rule.body.id}`)).body;
        assert.deepEqual([wire.backfill_status, wire.backfill_progress], ["completed", 1]);
        await assertEvaluatedOnce(again, rule.body.id, projectId, N);
      } finally {
        await again?.stop();
        await first.stop();
      }
    });
  },
);

describe("two app instances on one PostgreSQL", { skip: process.env.E2E_DATABASE_URL ? false : "needs E2E_DATABASE_URL" }, () => {
  let model: TestModelServer;
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  const servers: RunningServer[] = [];
  before(async () => {
    model = await startTestModelServer();
    scratch = await scratchDatabase(process.env.E2E_DATABASE_URL!);
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await model?.close();
    await scratch?.drop();
  });

  test("share the evaluation jobs and never run one twice", async () => {
    const N = 400;
    const env = {
      DATABASE_URL: scratch.url,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      ...FAST_LEASES,
    };
    const a = await startServer({ env });
    servers.push(a);
    servers.push(await startServer({ env, existing: { apiKey: a.apiKey, workspaceId: a.workspaceId } }));
    const { evaluatorId, projectId } = await setUp(a, model, N);
    const rule = await call(a, "POST", "/runs/rules", { display_name: "shared", session_id: projectId, evaluator_id: evaluatorId });
    const before = model.requests.length;
    model.chunkDelayMs = 10;
    // Queued by one instance, run by whichever instance claims them.
    const backfill = await call(a, "POST", `/runs/rules/${rule.body.id}/backfills`, {
      start_time: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    assert.equal(backfill.body.runs_total, N);
    await eventually(async () => {
      const [b] = (await call(servers[1], "GET", `/runs/rules/${rule.body.id}/backfills`)).body;
      return b.status === "completed";
    }, 90_000);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(model.requests.length - before, N, "one model call per run");
    await assertEvaluatedOnce(a, rule.body.id, projectId, N);
    const client = new Client({ apiUrl: a.url, apiKey: a.apiKey });
    const workers = new Set<string>();
    for await (const run of client.listRuns({ projectName: "evaluators" })) workers.add(String(run.extra?.metadata?.worker));
    assert.equal(workers.size, 2, `both instances ran evaluations: ${[...workers].join(", ")}`);
  });
});
