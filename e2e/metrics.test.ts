/**
 * /metrics (issue 35): requests are labelled by the app route that answered, so any number of
 * invented paths leaves the scrape's size and series count where they were; the scrape answers
 * loopback, METRICS_ALLOW callers and the Bearer METRICS_TOKEN, and refuses anyone else (a remote
 * caller is made with X-Forwarded-For through TRUSTED_PROXIES, as the server resolves callers).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startServer, type RunningServer } from "./harness/server";

const TOKEN = "metrics-token-for-the-e2e-test";

async function scrape(server: RunningServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/metrics`, { headers });
  return { status: response.status, text: await response.text() };
}

/** The request series (the process's own, such as GC kinds, appear as the runtime first does something). */
const requestSeries = (text: string) => text.split("\n").filter((line) => line.startsWith("tracelight_http_"));

/** `count` requests without a key to paths nobody has seen, 20 at a time. */
async function randomPaths(server: RunningServer, count: number): Promise<void> {
  const paths = [
    () => `/${randomUUID()}`,
    () => `/nope-${randomUUID().slice(0, 8)}/x/y/z`,
    () => `/api/v1/runs/${randomUUID()}`,
    () => `/repos/owner-${randomUUID().slice(0, 8)}/prompt-${randomUUID().slice(0, 8)}`,
    () => `/commits/owner/prompt-${randomUUID().slice(0, 8)}/latest`,
    () => `/api/v1/${randomUUID().slice(0, 8)}/${randomUUID().slice(0, 8)}`,
  ];
  for (let i = 0; i < count; i += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, count - i) }, (_, j) =>
        fetch(`${server.url}${paths[(i + j) % paths.length]!()}`).then((r) => r.arrayBuffer()),
      ),
    );
}

describe("/metrics: bounded labels, token or allowed caller", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { TRUSTED_PROXIES: "127.0.0.1", METRICS_TOKEN: TOKEN } });
  });
  after(async () => server?.stop());

  test("2,000 requests to invented paths leave the size and series count where they were", async () => {
    // Every kind of answer the test's paths get, and the scrape's own route, exist before the first measure.
    await scrape(server);
    await randomPaths(server, 120);
    const before = await scrape(server);
    assert.equal(before.status, 200);
    await randomPaths(server, 2_000);
    const afterwards = await scrape(server);
    assert.equal(requestSeries(afterwards.text).length, requestSeries(before.text).length, "request series");
    // A few more digits in counters, and GC kinds seen for the first time, at most.
    assert.ok(afterwards.text.length - before.text.length < 4_000, `${before.text.length} → ${afterwards.text.length} bytes`);
    const routes = new Set([...afterwards.text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    assert.ok(routes.has("unmatched"), [...routes].join(", "));
    assert.ok(routes.has("/api/v1/runs/[runId]"), [...routes].join(", "));
    assert.ok(![...routes].some((route) => /prompt-|owner-|nope-/.test(route!)), [...routes].join(", "));
  });

  test("a remote caller is refused without the token and answered with it", async () => {
    const remote = { "x-forwarded-for": "203.0.113.5" };
    const refused = await scrape(server, remote);
    assert.equal(refused.status, 401);
    assert.match(JSON.parse(refused.text).detail, /METRICS_TOKEN.*METRICS_ALLOW.*203\.0\.113\.5/);
    assert.equal((await scrape(server, { ...remote, authorization: "Bearer not-the-token-at-all" })).status, 401);
    const answered = await scrape(server, { ...remote, authorization: `Bearer ${TOKEN}` });
    assert.equal(answered.status, 200);
    assert.match(answered.text, /tracelight_http_requests_total/);
  });
});

describe("/metrics: METRICS_ALLOW", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { TRUSTED_PROXIES: "127.0.0.1", METRICS_ALLOW: "203.0.113.0/24" } });
  });
  after(async () => server?.stop());

  test("answers the allowed range only; loopback is no longer allowed once the list is set", async () => {
    assert.equal((await scrape(server, { "x-forwarded-for": "203.0.113.77" })).status, 200);
    assert.equal((await scrape(server, { "x-forwarded-for": "198.51.100.1" })).status, 401);
    assert.equal((await scrape(server)).status, 401);
  });
});
