import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, RunTree } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

const SECRET = "regions-e2e-internal-secret";
const FLUSH_MS = "200";
const thisMonth = () => new Date().toISOString().slice(0, 7);

/**
 * A stable address in front of a deployment (as a load balancer would be), so the other deployment
 * can be configured with it before the target starts, and the target can be stopped and replaced.
 * "lose-answer" forwards billing deliveries to the US but drops the answer on the way back.
 */
function frontDoor() {
  const state = { target: "", mode: "up" as "up" | "lose-answer", lostAnswers: 0, deliveries: 0 };
  const hop = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);
  const forwardable = (headers: IncomingHttpHeaders) =>
    Object.fromEntries(Object.entries(headers).filter(([k, v]) => !hop.has(k) && typeof v === "string")) as Record<string, string>;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const isDelivery = req.method === "POST" && req.url!.startsWith("/internal/billing/usage");
    try {
      if (!state.target) throw new Error("no deployment behind this address");
      const upstream = await fetch(`${state.target}${req.url}`, {
        method: req.method,
        headers: forwardable(req.headers),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
        redirect: "manual",
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (isDelivery) state.deliveries++;
      if (isDelivery && state.mode === "lose-answer") {
        state.lostAnswers++;
        return req.socket.destroy();
      }
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/octet-stream" }).end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ detail: `front door: ${(error as Error).message}` }));
    }
  });
  return {
    state,
    url: "",
    async listen() {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe("two regions: identity, billing in the US only, usage reported from the EU exactly once", () => {
  const usDoor = frontDoor();
  const euDoor = frontDoor();
  let usDataDir: string;
  let us: RunningServer;
  let eu: RunningServer;
  let euClient: Client;

  const usEnv = () => ({
    REGION: "us",
    US_BASE_URL: usDoor.url,
    EU_BASE_URL: euDoor.url,
    INTERNAL_SECRET: SECRET,
    BILLING_FLUSH_MS: FLUSH_MS,
    DATA_DIR: usDataDir,
  });
  const internal = (server: Pick<RunningServer, "url">, method: string, p: string, body?: unknown, secret = SECRET) =>
    call({ url: server.url, apiKey: "" }, method, p, body, { "x-internal-secret": secret });
  const euUsageInUs = async () => {
    const r = await internal(usDoor, "GET", `/internal/billing/usage?workspace_id=${eu.workspaceId}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.months.find((m: { month: string }) => m.month === thisMonth()) ?? { runs: 0, traces: 0 };
  };
  async function trace(name: string, children: number): Promise<void> {
    const root = new RunTree({ name, run_type: "chain", inputs: { q: name }, client: euClient, project_name: "regions-e2e" });
    await root.postRun();
    for (let i = 0; i < children; i++) {
      const child = root.createChild({ name: `${name}-llm-${i}`, run_type: "llm", inputs: { q: i } });
      await child.postRun();
      await child.end({ a: i });
      await child.patchRun();
    }
    await root.end({ done: true });
    await root.patchRun();
    await euClient.awaitPendingTraceBatches();
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  before(async () => {
    await Promise.all([usDoor.listen(), euDoor.listen()]);
    usDataDir = await mkdtemp(path.join(tmpdir(), "tracelight-us-"));
    us = await startServer({ databaseUrl: null, env: usEnv() });
    usDoor.state.target = us.url;
    eu = await startServer({
      env: {
        REGION: "eu",
        US_BASE_URL: usDoor.url,
        EU_BASE_URL: euDoor.url,
        INTERNAL_SECRET: SECRET,
        BILLING_FLUSH_MS: FLUSH_MS,
        EGRESS_IPS: "203.0.113.10, 203.0.113.11",
        INGRESS_IPS: "198.51.100.7",
      },
    });
    euDoor.state.target = eu.url;
    euClient = new Client({ apiUrl: eu.url, apiKey: eu.apiKey });
  });
  after(async () => {
    await Promise.all([us?.stop(), eu?.stop()]);
    await Promise.all([usDoor.close(), euDoor.close()]);
    if (usDataDir) await rm(usDataDir, { recursive: true, force: true });
  });

  test("/info says which region each deployment is, both base URLs, and the published addresses", async () => {
    const [usInfo, euInfo] = await Promise.all([call(us, "GET", "/info"), call(eu, "GET", "/info")]);
    assert.equal(usInfo.body.region, "us");
    assert.equal(euInfo.body.region, "eu");
    for (const info of [usInfo, euInfo]) assert.deepEqual(info.body.region_urls, { us: usDoor.url, eu: euDoor.url });
    assert.deepEqual(euInfo.body.network, {
      egress_ips: ["203.0.113.10", "203.0.113.11"],
      ingress_ips: ["198.51.100.7"],
      egress_proxy: false,
    });
    assert.deepEqual(usInfo.body.network, { egress_ips: [], ingress_ips: [], egress_proxy: false });
  });

  test("a key is refused by the other region with a 401 naming its own region's base URL", async () => {
    assert.match(us.apiKey, /^tl_us_/);
    assert.match(eu.apiKey, /^tl_eu_/);
    const euKeyInUs = await call({ url: us.url, apiKey: eu.apiKey }, "GET", "/sessions");
    assert.equal(euKeyInUs.status, 401);
    assert.match(euKeyInUs.body.detail, /EU region/);
    assert.ok(euKeyInUs.body.detail.includes(euDoor.url), euKeyInUs.body.detail);
    const usKeyInEu = await call({ url: eu.url, apiKey: us.apiKey }, "GET", "/sessions");
    assert.equal(usKeyInEu.status, 401);
    assert.ok(usKeyInEu.body.detail.includes(usDoor.url), usKeyInEu.body.detail);
    // Following the named URL works.
    assert.equal((await call({ url: euDoor.url, apiKey: eu.apiKey }, "GET", "/sessions")).status, 200);
    await assert.rejects(new Client({ apiUrl: us.url, apiKey: eu.apiKey }).readProject({ projectName: "default" }), /401|EU region/);
  });

  test("billing endpoints: the EU deployment refuses them; the US one wants the shared secret", async () => {
    const inEu = await internal(eu, "POST", "/internal/billing/usage", { region: "eu", deltas: [] });
    assert.equal(inEu.status, 404);
    assert.ok(inEu.body.detail.includes(`only in the US deployment (${usDoor.url})`), inEu.body.detail);
    assert.equal((await internal(eu, "GET", `/internal/billing/usage?workspace_id=${eu.workspaceId}`)).status, 404);
    const wrong = await internal(us, "POST", "/internal/billing/usage", { region: "eu", deltas: [] }, "not-the-secret");
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.detail, /x-internal-secret/);
    assert.equal((await call({ url: us.url, apiKey: "" }, "POST", "/internal/billing/usage", { region: "eu", deltas: [] })).status, 401);
  });

  test("runs ingested in the EU with the langsmith client arrive in US billing; GET /usage in the EU relays it", async () => {
    await trace("first", 1); // 2 runs, 1 trace
    const usage = await eventually(async () => {
      const m = await euUsageInUs();
      return m.runs >= 2 ? m : null;
    }, 30_000);
    assert.deepEqual({ runs: usage.runs, traces: usage.traces }, { runs: 2, traces: 1 });
    // The US counts a delta before the EU hears back and marks it delivered: wait for that answer.
    const euView = await eventually(async () => {
      const r = await call(eu, "GET", "/usage");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.unreported.runs === 0 ? r : null;
    });
    assert.equal(euView.body.workspace_id, eu.workspaceId);
    assert.equal(euView.body.billing_region, "us");
    assert.equal(euView.body.region, "eu");
    assert.equal(euView.body.plan.id, "free");
    assert.deepEqual(euView.body.months[0], { month: thisMonth(), runs: 2, traces: 1 });
    assert.equal(euView.body.unreported.runs, 0);
  });

  test("a US workspace's usage is counted in the US deployment itself", async () => {
    const client = new Client({ apiUrl: us.url, apiKey: us.apiKey });
    const run = new RunTree({ name: "us-run", run_type: "chain", inputs: {}, client });
    await run.postRun();
    await run.end({});
    await run.patchRun();
    await client.awaitPendingTraceBatches();
    const view = await eventually(async () => {
      const r = await call(us, "GET", "/usage");
      return r.status === 200 && r.body.months[0]?.runs === 1 ? r.body : null;
    }, 30_000);
    assert.equal(view.region, "us");
    assert.deepEqual(view.months[0], { month: thisMonth(), runs: 1, traces: 1 });
  });

  test("answers lost on the way back are retried and counted once", async () => {
    usDoor.state.mode = "lose-answer";
    await trace("lost-answers", 0); // 1 run, 1 trace
    await eventually(async () => usDoor.state.lostAnswers >= 2, 30_000);
    assert.deepEqual(
      await euUsageInUs().then(({ runs, traces }) => ({ runs, traces })),
      { runs: 3, traces: 2 },
      "applied on the first delivery",
    );
    usDoor.state.mode = "up";
    const before = usDoor.state.deliveries;
    await eventually(async () => {
      const r = await call(eu, "GET", "/usage");
      return r.status === 200 && r.body.unreported.runs === 0 ? r.body : null;
    }, 30_000);
    assert.ok(usDoor.state.deliveries > before, "the EU deployment delivered the same deltas again");
    assert.deepEqual(await euUsageInUs().then(({ runs, traces }) => ({ runs, traces })), { runs: 3, traces: 2 });
  });

  test("while the US deployment is down the EU keeps its usage, and delivers it once the US is back", async () => {
    await us.stop();
    usDoor.state.target = "";
    await trace("while-down-a", 2); // 3 runs, 1 trace
    await trace("while-down-b", 0); // 1 run, 1 trace
    await sleep(2_000); // several failed deliveries
    const down = await call(eu, "GET", "/usage");
    assert.equal(down.status, 502);
    assert.ok(down.body.detail.includes(`Billing lives in the US deployment (${usDoor.url})`), down.body.detail);

    us = await startServer({ databaseUrl: null, env: usEnv(), existing: { apiKey: us.apiKey, workspaceId: us.workspaceId } });
    usDoor.state.target = us.url;
    const usage = await eventually(async () => {
      const m = await euUsageInUs();
      return m.runs >= 7 ? m : null;
    }, 60_000);
    assert.deepEqual({ runs: usage.runs, traces: usage.traces }, { runs: 7, traces: 4 });
    await sleep(1_500); // more drain cycles: nothing more arrives
    assert.deepEqual(await euUsageInUs().then(({ runs, traces }) => ({ runs, traces })), { runs: 7, traces: 4 });
    const euView = await call(eu, "GET", "/usage");
    assert.equal(euView.status, 200);
    assert.deepEqual(euView.body.unreported, { runs: 0, traces: 0, oldest: null });
    // The US workspace's own usage survived the restart.
    assert.equal((await call(us, "GET", "/usage")).body.months[0].runs, 1);
  });
});
