import { resetEnv } from "../env";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { isNonPublicAddress } from "./address";
import { checkEgressUrl, EgressRefused, postJson } from "./http";

describe("outbound webhook calls", () => {
  let server: Server;
  let base: string;
  const seen: { path: string; body: string; headers: Record<string, unknown> }[] = [];
  const plan = new Map<string, number[]>();
  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        seen.push({ path: req.url!, body, headers: req.headers });
        const statuses = plan.get(req.url!) ?? [200];
        const status = statuses.length > 1 ? statuses.shift()! : statuses[0];
        if (status === 0) return; // never answer: the caller times out
        res.writeHead(status).end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    process.env.ALLOW_PRIVATE_EGRESS = "1";
    resetEnv();
  });
  after(async () => {
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  test("posts JSON with the given headers", async () => {
    const result = await postJson(`${base}/ok`, { a: 1 }, { headers: { "x-secret": "s" } });
    assert.deepEqual(result, { ok: true, status: 200, attempts: 1, detail: "HTTP 200" });
    const hit = seen.find((s) => s.path === "/ok")!;
    assert.deepEqual(JSON.parse(hit.body), { a: 1 });
    assert.equal(hit.headers["x-secret"], "s");
    assert.equal(hit.headers["content-type"], "application/json");
  });

  test("5xx is retried with backoff until it succeeds", async () => {
    plan.set("/flaky", [503, 500, 200]);
    const started = Date.now();
    const result = await postJson(`${base}/flaky`, {}, { backoffMs: 50 });
    assert.equal(result.ok, true);
    assert.equal(result.attempts, 3);
    assert.ok(Date.now() - started >= 150, "waited 50 then 100 ms");
  });

  test("gives up after three attempts; 4xx is not retried", async () => {
    plan.set("/down", [502]);
    assert.deepEqual(await postJson(`${base}/down`, {}, { backoffMs: 1 }), { ok: false, status: 502, attempts: 3, detail: "HTTP 502" });
    plan.set("/bad", [422]);
    assert.deepEqual(await postJson(`${base}/bad`, {}, { backoffMs: 1 }), { ok: false, status: 422, attempts: 1, detail: "HTTP 422" });
  });

  test("a receiver that never answers times out and is retried", async () => {
    plan.set("/silent", [0]);
    const result = await postJson(`${base}/silent`, {}, { timeoutMs: 100, backoffMs: 1, maxAttempts: 2 });
    assert.equal(result.ok, false);
    assert.equal(result.attempts, 2);
    assert.match(result.detail, /no answer within 100 ms/);
  });

  test("refuses non-http(s) URLs and, unless allowed, private addresses by literal or by name", async () => {
    assert.throws(() => checkEgressUrl("ftp://example.com/x"), EgressRefused);
    assert.throws(() => checkEgressUrl("file:///etc/passwd"), EgressRefused);
    assert.throws(() => checkEgressUrl("http://user:pw@example.com/"), EgressRefused);
    delete process.env.ALLOW_PRIVATE_EGRESS;
    resetEnv();
    try {
      for (const url of ["http://127.0.0.1:9/", "http://[::1]/", "http://10.1.2.3/", "http://169.254.169.254/latest"]) {
        assert.throws(() => checkEgressUrl(url), EgressRefused, url);
      }
      const refused = await postJson(`${base}/ok`, {});
      assert.equal(refused.attempts, 0);
      const byName = await postJson(`http://localhost:${new URL(base).port}/ok`, {}, { backoffMs: 1 });
      assert.equal(byName.ok, false);
      assert.match(byName.detail, /non-public address/);
      assert.equal(byName.attempts, 1, "a refused address is not retried");
    } finally {
      process.env.ALLOW_PRIVATE_EGRESS = "1";
      resetEnv();
    }
  });

  test("address classification", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
    ]) {
      assert.equal(isNonPublicAddress(a), true, a);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700::1111", "172.32.0.1"]) assert.equal(isNonPublicAddress(a), false, a);
  });
});
