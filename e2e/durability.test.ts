/**
 * Nothing acknowledged is ever lost (issue 12): the server killed with SIGKILL under concurrent
 * ingest, PostgreSQL stopped under load and absent at start, Redis killed under load. Each run is
 * counted as acknowledged only when its batch was answered 202; after the failure every one of them
 * must read back.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { call } from "./harness/http";
import { freePort, scratchDatabase, startServer, type RunningServer } from "./harness/server";
import { noPostgres, noRedis, startPostgres, startRedis, type PrivatePostgres } from "./harness/services";

/** These start their own databases and Redis: they run once, in the embedded pass of `npm test`. */
const once = process.env.E2E_DATABASE_URL ? "runs once, in the embedded pass" : false;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Concurrent batches of runs until stopped; remembers which runs were acknowledged (202). */
function ingestLoad(target: { url: string; apiKey: string }, workers = 4, perBatch = 25) {
  const acknowledged: string[] = [];
  const statuses = new Map<string, number>();
  const retryAfter = new Set<string>();
  let running = true;
  const project = `load-${randomUUID().slice(0, 8)}`;
  const worker = async () => {
    while (running) {
      const post = Array.from({ length: perBatch }, (_, i) => {
        const id = randomUUID();
        return {
          id,
          trace_id: id,
          dotted_order: `20260101T000000000000Z${id}`,
          name: `load-${i}`,
          run_type: "chain",
          session_name: project,
          start_time: new Date().toISOString(),
          inputs: { i },
        };
      });
      let status = "network error";
      try {
        const r = await fetch(`${target.url}/runs/batch`, {
          method: "POST",
          headers: { "x-api-key": target.apiKey, "content-type": "application/json" },
          body: JSON.stringify({ post }),
          signal: AbortSignal.timeout(30_000),
        });
        status = String(r.status);
        if (r.headers.get("retry-after")) retryAfter.add(status);
        await r.arrayBuffer();
        if (r.status === 202) acknowledged.push(...post.map((p) => p.id));
      } catch {
        await wait(50);
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const done = Promise.all(Array.from({ length: workers }, worker));
  return {
    acknowledged,
    statuses,
    retryAfter,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** The acknowledged runs that cannot be read back. */
async function missing(server: RunningServer, ids: string[]): Promise<string[]> {
  const lost: string[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const r = await call(server, "POST", "/runs/query", { id: chunk, limit: 100, select: ["id"] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const found = new Set((r.body.runs as { id: string }[]).map((run) => run.id));
    lost.push(...chunk.filter((id) => !found.has(id)));
  }
  return lost;
}

async function until(check: () => Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(200);
  }
}

test("kill -9 under concurrent ingest loses no acknowledged run (embedded database)", { skip: once }, async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "tl-kill-"));
  try {
    const first = await startServer({ env: { DATA_DIR: dataDir }, databaseUrl: null });
    const load = ingestLoad(first);
    await until(async () => load.acknowledged.length >= 500, "500 acknowledged runs");
    process.kill(first.pid, "SIGKILL");
    await load.stop();
    await first.stop();
    const again = await startServer({
      env: { DATA_DIR: dataDir },
      databaseUrl: null,
      existing: { apiKey: first.apiKey, workspaceId: first.workspaceId },
    });
    try {
      assert.deepEqual(await missing(again, load.acknowledged), [], `of ${load.acknowledged.length} acknowledged`);
    } finally {
      await again.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe("PostgreSQL stopped and started under the server", { skip: once || noPostgres }, () => {
  let pg: PrivatePostgres;
  const secrets = { NEXTAUTH_SECRET: randomBytes(32).toString("base64url"), INTERNAL_SECRET: randomBytes(32).toString("base64url") };
  before(async () => {
    pg = await startPostgres();
  });
  after(() => pg?.destroy()); // the scratch databases go with the cluster

  test("kill -9 under concurrent ingest loses no acknowledged run", async () => {
    const env = { DATABASE_URL: (await scratchDatabase(pg.url)).url, ...secrets };
    const first = await startServer({ env });
    const load = ingestLoad(first);
    await until(async () => load.acknowledged.length >= 500, "500 acknowledged runs");
    process.kill(first.pid, "SIGKILL");
    await load.stop();
    await first.stop();
    const again = await startServer({ env, existing: { apiKey: first.apiKey, workspaceId: first.workspaceId } });
    try {
      assert.deepEqual(await missing(again, load.acknowledged), [], `of ${load.acknowledged.length} acknowledged`);
    } finally {
      await again.stop();
    }
  });

  test("stopped during load: 503 with Retry-After meanwhile, one log line per outage, nothing acknowledged lost", async () => {
    const server = await startServer({ env: { DATABASE_URL: (await scratchDatabase(pg.url)).url, ...secrets } });
    try {
      const load = ingestLoad(server);
      await until(async () => load.acknowledged.length >= 200, "200 acknowledged runs");
      pg.stop();
      await wait(3_000);
      const during = await call(server, "GET", "/sessions");
      assert.equal(during.status, 503, JSON.stringify(during.body));
      assert.equal(during.headers.get("retry-after"), "5");
      pg.start();
      const before = load.acknowledged.length;
      await until(async () => load.acknowledged.length > before + 100, "ingest to resume by itself");
      await load.stop();
      assert.ok(load.retryAfter.has("503"), `statuses ${JSON.stringify([...load.statuses])}`);
      assert.deepEqual(
        [...load.statuses.keys()].filter((s) => s !== "202" && s !== "503"),
        [],
        "only 202 or 503, never a 500",
      );
      assert.deepEqual(await missing(server, load.acknowledged), [], `of ${load.acknowledged.length} acknowledged`);
      const lines = server.output().split("\n");
      assert.equal(lines.filter((l) => l.includes("The database is unavailable")).length, 1, "one line when the outage starts");
      assert.equal(lines.filter((l) => l.includes("The database is back")).length, 1, "one when it ends");
    } finally {
      await server.stop();
    }
  });

  test("absent at start: 503 until it is up, then ready by itself", async () => {
    const databaseUrl = (await scratchDatabase(pg.url)).url;
    pg.stop();
    const port = await freePort();
    const starting = startServer({ env: { DATABASE_URL: databaseUrl, ...secrets }, port });
    const url = `http://127.0.0.1:${port}`;
    try {
      await until(async () => (await fetch(`${url}/info`)).status === 503, "a 503 while the database is down");
      const answer = await fetch(`${url}/info`);
      assert.equal(answer.headers.get("retry-after"), "5");
      assert.match(((await answer.json()) as { detail: string }).detail, /database is unavailable/);
    } finally {
      pg.start();
    }
    const server = await starting;
    try {
      assert.equal((await call(server, "GET", "/info")).status, 200);
      assert.equal((await call(server, "POST", "/runs", { id: randomUUID(), name: "after", run_type: "chain", inputs: {} })).status, 202);
    } finally {
      await server.stop();
    }
  });
});

test("Redis killed under load: rate limits fall back to memory, ingest goes on, nothing lost", { skip: once || noRedis }, async () => {
  const redis = await startRedis();
  const server = await startServer({ env: { REDIS_URL: redis.url, RATE_LIMITS: "on" } });
  try {
    const load = ingestLoad(server, 2, 10);
    await until(async () => load.acknowledged.length >= 100, "100 acknowledged runs");
    redis.kill();
    const before = load.acknowledged.length;
    await until(async () => load.acknowledged.length > before + 200, "ingest to go on without Redis");
    await load.stop();
    assert.deepEqual(
      [...load.statuses.keys()].filter((s) => s !== "202" && s !== "429"),
      [],
      JSON.stringify([...load.statuses]),
    );
    assert.deepEqual(await missing(server, load.acknowledged), []);
    assert.match(server.output(), /Redis unavailable/);
  } finally {
    redis.kill();
    await server.stop();
  }
});
