/**
 * Read replicas: the server on a private PostgreSQL primary with a real streaming replica of it
 * (pg_basebackup -R, started by the harness), DATABASE_REPLICA_URLS naming the replica. The SDK's
 * create-then-read sees its run (a run by id is read on the primary); run queries are answered by
 * the replica, counted in /metrics; while the replica's replay is held back past the lag bound,
 * queries go to the primary and still see every run. Runs in the PostgreSQL pass of the e2e suite.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "langsmith";
import { postgresTools, startReplicatedPostgres, type ReplicatedPostgres } from "../server/db/test-replica";
import { collect, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const skip = !process.env.E2E_DATABASE_URL
  ? "runs in the PostgreSQL pass (E2E_DATABASE_URL)"
  : !postgresTools()
    ? "PostgreSQL's server tools are not installed"
    : false;

describe("reads from a streaming replica", { skip }, () => {
  let cluster: ReplicatedPostgres;
  let server: RunningServer;
  let client: Client;
  const project = `replicas-${randomUUID().slice(0, 8)}`;

  before(async () => {
    cluster = await startReplicatedPostgres();
    server = await startServer({
      env: { DATABASE_URL: cluster.primaryUrl, DATABASE_REPLICA_URLS: cluster.replicaUrl, DATABASE_REPLICA_MAX_LAG_MS: "500" },
    });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
  });
  after(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  const readsCounted = async (target: string) => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(new RegExp(`tracelight_db_reads_total\\{target="${target}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  };
  const sendRun = async (name: string) => {
    const id = randomUUID();
    await client.createRun({ id, name, run_type: "chain", inputs: { q: name }, project_name: project, start_time: Date.now() });
    await client.updateRun(id, { outputs: { a: name }, end_time: Date.now() });
    return id;
  };
  const listed = async () => (await collect(client.listRuns({ projectName: project }))).map((run) => run.name).sort();

  test("the SDK reads its run right after creating it, and run queries are answered by the replica", async () => {
    const id = await sendRun("first");
    const read = await client.readRun(id);
    assert.deepEqual(read.outputs, { a: "first" });
    const before = await readsCounted("replica");
    assert.deepEqual(await eventually(async () => ((await listed()).includes("first") ? listed() : null)), ["first"]);
    assert.ok((await readsCounted("replica")) > before, "run queries counted as replica reads");
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /tracelight_db_replica_lag_seconds\{replica="replica-1"\} [\d.e-]+/);
    assert.match(metrics, /tracelight_db_pool_connections\{pool="replica-1",state="total"\} \d+/);
  });

  test("while the replica lags past the bound, queries go to the primary and see every run", async () => {
    await cluster.pauseReplay();
    try {
      const id = await sendRun("second");
      assert.deepEqual((await client.readRun(id)).outputs, { a: "second" });
      await sleep(1_200);
      const before = await readsCounted("primary");
      assert.deepEqual(await listed(), ["first", "second"]);
      assert.ok((await readsCounted("primary")) > before, "run queries counted as primary reads");
    } finally {
      await cluster.resumeReplay();
    }
    const before = await readsCounted("replica");
    const replicaAgain = async () => (await listed()) && (await readsCounted("replica")) > before;
    await eventually(replicaAgain, 10_000, "run queries answered by the replica again");
    assert.deepEqual(await listed(), ["first", "second"]);
  });
});
