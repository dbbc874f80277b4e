/**
 * A rule's webhook is never lost (issue 35): 300 runs match a webhook rule, and the process running
 * the rules is killed with SIGKILL mid-way — the server (embedded database, or PostgreSQL with
 * E2E_DATABASE_URL), or on PostgreSQL a separate worker (`npm run worker`). After the restart every
 * run's webhook arrives at least once, and a run delivered twice carries the same
 * X-Tracelight-Delivery both times.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { call, eventually } from "./harness/http";
import { freePort, scratchDatabase, startServer, type RunningServer } from "./harness/server";

const N = 300;
const pgUrl = process.env.E2E_DATABASE_URL;
/** Short leases, so a job the killed process held runs again within seconds. */
const FAST = { ALLOW_PRIVATE_EGRESS: "1", JOB_LEASE_SECONDS: "2", JOB_MAINTENANCE_SECONDS: "1", RULE_RETRY_BASE_MS: "200" };

/** A webhook receiver that answers slowly (so the work is spread out) and counts deliveries per run. */
function receiver() {
  const deliveries = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const runId = (JSON.parse(body) as { run: { id: string } }).run.id;
      deliveries.set(runId, [...(deliveries.get(runId) ?? []), String(req.headers["x-tracelight-delivery"])]);
      setTimeout(() => res.writeHead(204).end(), 150);
    });
  });
  return {
    deliveries,
    listen: () =>
      new Promise<string>((r) =>
        server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`)),
      ),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** N finished runs of one project in batches; the ids of those acknowledged (202). */
async function ingest(server: RunningServer, project: string, runs: object[]): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let i = 0; i < runs.length; i += 25) {
    const batch = runs.slice(i, i + 25) as { id: string }[];
    const r = await fetch(`${server.url}/runs/batch`, {
      method: "POST",
      headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ post: batch.map((run) => ({ ...run, session_name: project })) }),
    }).catch(() => null);
    if (r?.status === 202) acknowledged.push(...batch.map((b) => b.id));
  }
  return acknowledged;
}

function finishedRuns(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    return { id, trace_id: id, name: `step-${i}`, run_type: "chain", start_time: now, end_time: now, inputs: { i }, outputs: { ok: true } };
  });
}

/** A project with a webhook rule on it. */
async function ruleOn(server: RunningServer, hookUrl: string) {
  const project = `durable-${randomUUID().slice(0, 8)}`;
  const session = await call(server, "POST", "/sessions", { name: project });
  assert.equal(session.status, 200, JSON.stringify(session.body));
  const rule = await call(server, "POST", "/runs/rules", {
    display_name: "notify",
    session_id: session.body.id,
    webhooks: [{ url: hookUrl }],
  });
  assert.equal(rule.status, 200, JSON.stringify(rule.body));
  return { project, ruleId: rule.body.id as string };
}

/** Every run delivered at least once, each run's duplicates under one delivery id; logged once per run. */
async function assertDelivered(server: RunningServer, hook: ReturnType<typeof receiver>, ids: string[], ruleId: string) {
  await eventually(
    async () => ids.every((id) => hook.deliveries.has(id)),
    90_000,
    () => {
      const missing = ids.filter((id) => !hook.deliveries.has(id)).length;
      return `every run's webhook (${missing} of ${ids.length} missing)`;
    },
  );
  for (const id of ids)
    assert.equal(new Set(hook.deliveries.get(id)).size, 1, `run ${id}: one delivery id, got ${hook.deliveries.get(id)}`);
  const ids2 = [...hook.deliveries.values()].map((d) => d[0]);
  assert.equal(new Set(ids2).size, ids2.length, "a delivery id per run");
  const logs = await eventually(async () => {
    const found = (await call(server, "GET", `/runs/rules/${ruleId}/logs?limit=1000`)).body as { run_id: string; outcome: string }[];
    const succeeded = new Set(found.filter((l) => l.outcome === "success").map((l) => l.run_id));
    return ids.every((id) => succeeded.has(id)) ? found : null;
  }, 30_000);
  assert.equal(logs.filter((l) => l.outcome === "success").length, ids.length, "one success in the rule's logs per run");
  const duplicates = [...hook.deliveries.values()].filter((d) => d.length > 1).length;
  console.log(`${ids.length} runs delivered; ${duplicates} delivered more than once`);
}

describe("rule webhooks survive kill -9 of the process that runs them", () => {
  const hook = receiver();
  let hookUrl: string;
  before(async () => {
    hookUrl = await hook.listen();
  });
  after(() => hook.close());

  test(`the server killed mid-way through ${N} runs (${pgUrl ? "PostgreSQL" : "embedded database"})`, { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "tl-rule-kill-"));
    const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
    const env: Record<string, string> = { ...FAST, DATA_DIR: dataDir };
    if (scratch)
      Object.assign(env, {
        DATABASE_URL: scratch.url,
        NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
        INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      });
    const first = await startServer({ env, databaseUrl: scratch ? undefined : null });
    let again: RunningServer | null = null;
    try {
      const { project, ruleId } = await ruleOn(first, hookUrl);
      const runs = finishedRuns(N);
      const sending = ingest(first, project, runs);
      await eventually(async () => hook.deliveries.size >= 20, 60_000, "the first webhooks");
      process.kill(first.pid, "SIGKILL");
      const acknowledged = await sending;
      assert.ok(hook.deliveries.size < N, `killed mid-way (${hook.deliveries.size} of ${N} delivered)`);
      console.log(`killed with ${hook.deliveries.size} of ${N} delivered, ${acknowledged.length} acknowledged`);
      await first.stop();
      again = await startServer({
        env,
        databaseUrl: scratch ? undefined : null,
        existing: { apiKey: first.apiKey, workspaceId: first.workspaceId },
      });
      // What the kill cut off is sent again, as a client does with an unanswered request.
      const resent = await ingest(
        again,
        project,
        runs.filter((r) => !acknowledged.includes(r.id)),
      );
      assert.equal(acknowledged.length + resent.length, N);
      await assertDelivered(
        again,
        hook,
        runs.map((r) => r.id),
        ruleId,
      );
    } finally {
      await again?.stop();
      await first.stop();
      await scratch?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test(
    `a worker process killed mid-way through ${N} runs (PostgreSQL)`,
    { skip: pgUrl ? false : "needs E2E_DATABASE_URL", timeout: 120_000 },
    async () => {
      const scratch = await scratchDatabase(pgUrl!);
      const env = {
        ...FAST,
        DATABASE_URL: scratch.url,
        NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
        INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      };
      const web = await startServer({ env: { ...env, JOB_WORKERS: "0" } });
      let worker: ChildProcess | null = null;
      const startWorker = async () => {
        const port = await freePort();
        let output = "";
        const child = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
          env: { ...process.env, ...env, JOB_WORKERS: "1", WORKER_PORT: String(port), DATA_DIR: path.join(tmpdir(), `tl-worker-${port}`) },
          stdio: ["ignore", "pipe", "pipe"],
        });
        child.stdout!.on("data", (d) => (output += d));
        child.stderr!.on("data", (d) => (output += d));
        await eventually(
          async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok,
          60_000,
          () => `the worker:\n${output}`,
        );
        return child;
      };
      try {
        worker = await startWorker();
        const { project, ruleId } = await ruleOn(web, hookUrl);
        const runs = finishedRuns(N);
        assert.equal((await ingest(web, project, runs)).length, N);
        await eventually(async () => runs.filter((r) => hook.deliveries.has(r.id)).length >= 20, 60_000, "20 webhooks");
        worker.kill("SIGKILL");
        const delivered = runs.filter((r) => hook.deliveries.has(r.id)).length;
        assert.ok(delivered < N, `killed mid-way (${delivered} of ${N} delivered)`);
        console.log(`worker killed with ${delivered} of ${N} delivered`);
        worker = await startWorker();
        await assertDelivered(
          web,
          hook,
          runs.map((r) => r.id),
          ruleId,
        );
      } finally {
        if (worker?.exitCode === null) worker.kill("SIGKILL");
        await web.stop();
        await scratch.drop().catch(() => undefined);
      }
    },
  );
});
