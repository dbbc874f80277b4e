import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { call, type CallResult } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

// POST /runs/query with an API key is the contract's tightest everyday row: 15 requests per 10 s.
const QUERY_LIMIT = 15;
const DETAIL = /^Rate limit exceeded for Run query \(API\): 15 requests per 10 seconds\. Retry after (\d+) s\.$/;

const query = (server: RunningServer, apiKey = server.apiKey) => call(server, "POST", "/runs/query", { limit: 1 }, { "x-api-key": apiKey });

function assertLimitHeaders(r: CallResult, remaining: number) {
  assert.equal(r.headers.get("x-ratelimit-limit"), String(QUERY_LIMIT));
  assert.equal(r.headers.get("x-ratelimit-remaining"), String(remaining));
  const reset = Number(r.headers.get("x-ratelimit-reset"));
  assert.ok(reset >= 1 && reset <= 10, `X-RateLimit-Reset ${reset}`);
}

function assertRefused(r: CallResult) {
  assert.equal(r.status, 429, JSON.stringify(r.body));
  assertLimitHeaders(r, 0);
  const retryAfter = Number(r.headers.get("retry-after"));
  assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
  assert.equal(r.headers.get("x-ratelimit-reset"), String(retryAfter));
  assert.equal(DETAIL.exec(r.body.detail)?.[1], String(retryAfter), r.body.detail);
}

describe("rate limits over HTTP, counted in memory", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { RATE_LIMITS: "on" } });
  });
  after(async () => server?.stop());

  test("POST /runs/query admits 15 requests per key with counting-down headers, then answers 429 with Retry-After", async () => {
    for (let i = 1; i <= QUERY_LIMIT; i++) {
      const r = await query(server);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assertLimitHeaders(r, QUERY_LIMIT - i);
    }
    const refused = await query(server);
    assertRefused(refused);
    // Browsers may read the limit headers: CORS exposes them on the refusal too.
    assert.match(refused.headers.get("access-control-expose-headers") ?? "", /Retry-After/i);
    // The same path under /api/v1 is the same endpoint and the same budget.
    assertRefused(await call(server, "POST", "/api/v1/runs/query/", { limit: 1 }));
  });

  test("other rows keep their own budgets: the refused key still reads runs, and a stranger's key is counted apart", async () => {
    const sessions = await call(server, "GET", "/sessions");
    assert.equal(sessions.status, 200);
    assert.equal(sessions.headers.get("x-ratelimit-limit"), "1000");
    const stranger = await query(server, "lsv2_sk_not_a_real_key");
    assert.equal(stranger.status, 401);
  });
});

describe(
  "rate limits over HTTP, two servers sharing one Redis",
  { skip: process.env.TEST_REDIS_URL ? false : "TEST_REDIS_URL not set" },
  () => {
    let a: RunningServer;
    let b: RunningServer;
    before(async () => {
      const env = { RATE_LIMITS: "on", REDIS_URL: process.env.TEST_REDIS_URL! };
      [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    });
    after(async () => Promise.all([a?.stop(), b?.stop()]));

    test("requests to either server draw on one budget per key", async () => {
      // B does not know A's key, but counts it before any lookup, in the same Redis counter.
      for (let i = 1; i <= QUERY_LIMIT; i++) {
        const onA = i % 2 === 1;
        const r = await query(onA ? a : b, a.apiKey);
        assert.equal(r.status, onA ? 200 : 401, JSON.stringify(r.body));
        if (onA) assertLimitHeaders(r, QUERY_LIMIT - i);
      }
      assertRefused(await query(a, a.apiKey));
      assertRefused(await query(b, a.apiKey));
      assert.equal((await query(b)).status, 200, "B's own key has its own budget");
      assert.doesNotMatch(a.output() + b.output(), /Redis unavailable/);
    });
  },
);
