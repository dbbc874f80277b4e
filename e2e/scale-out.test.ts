/**
 * Past one machine, on PostgreSQL, Redis and a local S3 server: two web instances (JOB_WORKERS=0) and
 * one worker process (`npm run worker`) on one database. Runs and attachments sent to either are read
 * through the other;
 * a rule's webhook fires once per run, from the worker; /healthz, /readyz and /metrics answer; a web
 * instance killed with SIGKILL mid-load loses no acknowledged run; the worker stops gracefully on
 * SIGTERM. Needs E2E_DATABASE_URL (the PostgreSQL pass of the e2e suite).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { Client } from "pg";
import { startTestS3, type TestS3 } from "../server/blobs/test-s3";
import { call, eventually } from "./harness/http";
import { freePort, scratchDatabase, startServer, type RunningServer } from "./harness/server";

const pgUrl = process.env.E2E_DATABASE_URL;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("two web instances and a worker on one PostgreSQL", { skip: pgUrl ? false : "needs E2E_DATABASE_URL (PostgreSQL)" }, () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let s3: TestS3;
  let web: RunningServer[] = [];
  let worker: ChildProcess;
  let workerOutput = "";
  let workerUrl: string;
  let receiver: Server;
  let hookUrl: string;
  const deliveries = new Map<string, number>();

  before(async () => {
    scratch = await scratchDatabase(pgUrl!);
    s3 = await startTestS3();
    const env = {
      ...s3.env,
      DATABASE_URL: scratch.url,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      JOB_WORKERS: "0",
      ALLOW_PRIVATE_EGRESS: "1",
    };
    const first = await startServer({ env });
    web = [first, await startServer({ env, existing: { apiKey: first.apiKey, workspaceId: first.workspaceId } })];
    const workerPort = await freePort();
    workerUrl = `http://127.0.0.1:${workerPort}`;
    worker = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
      env: { ...process.env, ...env, JOB_WORKERS: "2", WORKER_PORT: String(workerPort), DATA_DIR: `/tmp/tracelight-worker-${workerPort}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d) => (workerOutput += d));
    worker.stderr!.on("data", (d) => (workerOutput += d));
    await eventually(
      async () => (await fetch(`${workerUrl}/healthz`).catch(() => null))?.ok,
      60_000,
      () => `the worker to start:\n${workerOutput}`,
    );
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const runId = (JSON.parse(body) as { run?: { id?: string } }).run?.id;
        if (runId) deliveries.set(runId, (deliveries.get(runId) ?? 0) + 1);
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  after(async () => {
    if (worker?.exitCode === null) worker.kill("SIGKILL");
    for (const server of web) await server.stop();
    receiver?.close();
    await scratch?.drop().catch(() => undefined);
    await s3?.close();
  });

  const run = (project: string, name = "step") => {
    const start = Date.now() - 1000;
    return {
      id: randomUUID(),
      name,
      run_type: "chain",
      session_name: project,
      start_time: start,
      end_time: start + 500,
      inputs: { q: name },
    };
  };

  test("runs from both instances are read through either; a rule's webhook fires once per run, from the worker", async () => {
    const project = (await call(web[0]!, "POST", "/sessions", { name: "scaled" })).body;
    const rule = await call(web[1]!, "POST", "/runs/rules", {
      display_name: "notify",
      session_id: project.id,
      webhooks: [{ url: hookUrl }],
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    const runs = Array.from({ length: 40 }, () => run("scaled"));
    for (const [i, batch] of [runs.slice(0, 20), runs.slice(20)].entries())
      for (let j = 0; j < batch.length; j += 5)
        assert.equal((await call(web[i]!, "POST", "/runs/batch", { post: batch.slice(j, j + 5) })).status, 202);
    for (const [i, r] of runs.entries()) {
      const read = await call(web[(i + 1) % 2]!, "GET", `/runs/${r.id}`);
      assert.equal(read.status, 200, `run ${i} through the other instance`);
    }
    await eventually(async () => runs.every((r) => deliveries.has(r.id)), 30_000, "a webhook for every run");
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(new Set(runs.map((r) => deliveries.get(r.id))), new Set([1]), "each run's webhook exactly once");
  });

  test("an attachment sent to one instance is in the shared bucket, linked through the other", async () => {
    const id = randomUUID();
    const form = new FormData();
    form.append(`post.${id}`, new Blob([JSON.stringify({ ...run("files"), id })], { type: "application/json" }));
    form.append(`attachment.${id}.notes`, new Blob(["from web 1"], { type: "text/plain" }));
    const sent = await fetch(`${web[0]!.url}/runs/multipart`, { method: "POST", headers: { "x-api-key": web[0]!.apiKey }, body: form });
    assert.equal(sent.status, 202);
    const read = await call(web[1]!, "GET", `/runs/${id}`);
    const link = read.body.s3_urls["attachment.notes"].presigned_url as string;
    assert.ok(link.startsWith(s3.env.S3_ENDPOINT!), link);
    assert.equal(await (await fetch(link)).text(), "from web 1");
  });

  test("/healthz, /readyz and /metrics on web and worker", async () => {
    const live = await fetch(`${web[0]!.url}/healthz`);
    assert.equal(live.status, 200);
    const ready = await (await fetch(`${web[1]!.url}/readyz`)).json();
    assert.deepEqual(ready, { status: "ready", checks: { database: "ok", blobs: "ok", redis: "ok" } });
    const metrics = await (await fetch(`${web[0]!.url}/metrics`)).text();
    assert.match(metrics, /tracelight_ingest_runs_total\{outcome="stored"\} \d+/);
    assert.match(metrics, /tracelight_http_requests_total\{method="POST",route="\/api\/v1\/runs\/batch",status="202"\} \d+/);
    assert.match(metrics, /tracelight_db_pool_connections\{pool="requests",state="total"\} \d+/);
    const workerMetrics = await (await fetch(`${workerUrl}/metrics`)).text();
    assert.match(workerMetrics, /tracelight_job_queue_waiting\{queue="rule-action"\} \d+/);
    assert.match(workerMetrics, /tracelight_job_queue_oldest_seconds\{queue="evaluation"\} [\d.]+/);
    assert.equal((await fetch(`${workerUrl}/readyz`)).status, 200);
  });

  test("a web instance killed with SIGKILL mid-load loses no acknowledged run", async () => {
    const victim = web[1]!;
    const acknowledged: string[] = [];
    let sending = true;
    const load = (async () => {
      while (sending) {
        const batch = Array.from({ length: 10 }, () => run("killed"));
        const answer = await call(victim, "POST", "/runs/batch", { post: batch }).catch(() => null);
        if (answer?.status === 202) acknowledged.push(...batch.map((r) => r.id));
      }
    })();
    await eventually(async () => acknowledged.length >= 50, 30_000, "some acknowledged runs");
    process.kill(victim.pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 500));
    sending = false;
    await load;
    for (const id of acknowledged) assert.equal((await call(web[0]!, "GET", `/runs/${id}`)).status, 200, `acknowledged run ${id}`);
  });

  test("a web instance stopped with SIGTERM answers the requests in flight before it exits", async () => {
    const server = web[0]!;
    const batches = Array.from({ length: 6 }, () => Array.from({ length: 100 }, () => run("drained")));
    const answers = Promise.all(batches.map((post) => call(server, "POST", "/runs/batch", { post })));
    // Long enough for the server to have read every request (a request it has not begun to read
    // arrives on a connection it counts as idle, which stopping closes), short enough that most are
    // still being stored.
    await new Promise((r) => setTimeout(r, 250));
    process.kill(server.pid, "SIGTERM");
    assert.deepEqual(
      (await answers).map((a) => a.status),
      batches.map(() => 202),
    );
    await eventually(async () => !alive(server.pid), 10_000, "the instance to exit");
    const pg = new Client({ connectionString: scratch.url });
    await pg.connect();
    const stored = await pg.query("SELECT count(*)::int AS n FROM runs WHERE id = ANY($1::uuid[])", [batches.flat().map((r) => r.id)]);
    await pg.end();
    assert.equal(stored.rows[0].n, 600);
  });

  test("the worker stops on SIGTERM: running jobs finish, exit code 0", async () => {
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    assert.equal(await exited, 0, workerOutput);
    assert.match(workerOutput, /SIGTERM: letting running jobs finish/);
  });
});
