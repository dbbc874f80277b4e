/**
 * Issue 35 through the built server and the real langsmith client: a read-only SQL query that
 * would run for minutes is cancelled at SQL_TIMEOUT_MS (on the embedded database too, where it
 * shares the server's one database thread), and a run posted meanwhile is stored within seconds.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, Langsmith } from "langsmith";
import { startServer, type RunningServer } from "./harness/server";

describe("read-only SQL cannot hold the database", () => {
  let server: RunningServer;
  let sdk: Langsmith;
  let client: Client;
  let projectId: string;
  const projectName = `sql-bounds-${randomUUID().slice(0, 8)}`;

  before(async () => {
    server = await startServer({ env: { SQL_TIMEOUT_MS: "1000" } });
    sdk = new Langsmith({ baseURL: server.url, apiKey: server.apiKey });
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey, autoBatchTracing: false });
    projectId = (await client.createProject({ projectName })).id;
  });
  after(async () => server?.stop());

  test("a query past SQL_TIMEOUT_MS is a 400 after about that long, and a run posted meanwhile is stored", async (t) => {
    // One set-returning function per FROM passes the checks and the planner takes each for 100
    // rows; the array holds 15,000: 2·10^8 comparisons, minutes of work.
    const array = `'${JSON.stringify(Array.from({ length: 15_000 }, (_, i) => i))}'`;
    const query = `WITH x AS (SELECT ${array}::json AS j) SELECT count(*) FROM x, json_array_elements_text(x.j) a
      WHERE (SELECT count(*) FROM json_array_elements_text(x.j) b WHERE b.value < a.value) >= 0`;
    const started = Date.now();
    const cancelled = assert
      .rejects(sdk.sql.query({ project_ids: [projectId], query }), (error: { status?: number; message?: string }) => {
        return error.status === 400 && /ran longer than 1 s and was cancelled/.test(String(error.message));
      })
      .then(() => Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const posted = Date.now();
    const id = randomUUID();
    await client.createRun({
      id,
      name: "meanwhile",
      run_type: "chain",
      project_name: projectName,
      inputs: {},
      outputs: {},
      end_time: Date.now(),
    });
    const ingestMs = Date.now() - posted;
    const queryMs = await cancelled;
    t.diagnostic(`the query was answered after ${queryMs} ms; the run was stored in ${ingestMs} ms`);
    assert.ok(queryMs < 1000 + 5000, `the query was answered after ${queryMs} ms`);
    assert.ok(ingestMs < 3000, `the run took ${ingestMs} ms`);
    assert.equal((await client.readRun(id)).name, "meanwhile");
  });
});
