import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { counterKey, createRateLimiter, decide } from "./limiter";
import { applicableRows, type RateLimitRequest } from "./match";
import type { IdentityKind, Region } from "./rows";
import { LIMIT_TABLE } from "./table";

const RUN_ID = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const IP = "198.51.100.7";

/** A request that only this row counts, so its own limit is the one that refuses. */
const REPRESENTATIVE: Record<string, { method: string; path: string }> = {
  "high-throughput-public": { method: "GET", path: "/info" },
  "auth-api-key": { method: "GET", path: "/auth" },
  "auth-user": { method: "POST", path: "/auth/verify" },
  beacon: { method: "POST", path: "/v1/beacon" },
  "repos-api-key": { method: "GET", path: "/repos/me/prompt" },
  "repos-user": { method: "GET", path: "/repos" },
  "runs-batch": { method: "POST", path: "/runs/batch" },
  "otel-traces": { method: "POST", path: "/otel/v1/traces" },
  "charts-api-key": { method: "POST", path: "/sessions/abc/charts" },
  "charts-user": { method: "POST", path: "/charts" },
  "runs-multipart": { method: "POST", path: "/api/v1/runs/multipart" },
  "runs-query-api-key": { method: "POST", path: "/runs/query" },
  "runs-query-user": { method: "POST", path: "/api/v1/runs/query/" },
  "generate-api-key": { method: "POST", path: "/generate" },
  "generate-user": { method: "POST", path: "/generate/prompt" },
  "commits-api-key": { method: "POST", path: "/commits/me/prompt" },
  "commits-user": { method: "GET", path: "/commits/me/prompt" },
  "deletion-api-key": { method: "DELETE", path: "/sessions/abc" },
  "deletion-user": { method: "POST", path: "/runs/rules/abc/trigger" },
  "runs-create": { method: "POST", path: "/runs" },
  "runs-update": { method: "PATCH", path: `/runs/${RUN_ID}` },
  "feedback-create": { method: "POST", path: "/feedback" },
  "run-lookup": { method: "GET", path: `/api/v1/runs/${RUN_ID}` },
  examples: { method: "GET", path: "/datasets/abc/examples" },
  "default-api-key": { method: "GET", path: "/datasets" },
  "default-user": { method: "GET", path: "/datasets" },
  "public-download": { method: "GET", path: "/public/download/token" },
  "runs-stats": { method: "POST", path: "/runs/stats" },
  "catch-all": { method: "GET", path: "/datasets" },
};

function requestFor(kind: IdentityKind, shape: { method: string; path: string }, who = "a"): RateLimitRequest {
  if (kind === "api_key") return { ...shape, ip: IP, apiKey: `lsv2_sk_${who}` };
  if (kind === "user_ip") return { ...shape, ip: IP, userId: `user-${who}` };
  return { ...shape, ip: who === "a" ? IP : "198.51.100.8" };
}

/** Another caller the same row counts separately: another key, the same user from another IP, another IP. */
function otherCaller(kind: IdentityKind, req: RateLimitRequest): RateLimitRequest {
  if (kind === "user_ip") return { ...req, ip: "192.0.2.200" };
  return requestFor(kind, req, "b");
}

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

test("every table row has a representative request", () => {
  assert.deepEqual(Object.keys(REPRESENTATIVE).sort(), LIMIT_TABLE.map((r) => r.id).sort());
});

for (const region of ["us", "eu"] as Region[]) {
  describe(`each row's limit in the ${region.toUpperCase()} region`, () => {
    for (const row of LIMIT_TABLE) {
      const { count, windowSeconds } = row.limits[region];
      test(`${row.id}: ${count} requests per ${windowSeconds} s pass, the next is refused, the window then reopens`, async () => {
        const time = clock();
        const limiter = createRateLimiter({ region, now: time.now });
        const req = requestFor(row.identity, REPRESENTATIVE[row.id]!);
        assert.deepEqual(
          applicableRows(req).map((a) => a.row.id),
          [row.id],
        );

        for (let i = 1; i <= count; i++) {
          const decision = await limiter.check(req);
          if (!decision.allowed || i === 1 || i === count) {
            assert.equal(decision.allowed, true, `request ${i} of ${count}`);
            assert.equal(decision.headers["X-RateLimit-Limit"], String(count));
            assert.equal(decision.headers["X-RateLimit-Remaining"], String(count - i));
            assert.equal(decision.headers["X-RateLimit-Reset"], String(windowSeconds));
          }
        }
        time.advance(1_000);
        const refused = await limiter.check(req);
        assert.equal(refused.allowed, false);
        assert.equal(refused.retryAfterSeconds, windowSeconds - 1);
        assert.deepEqual(refused.headers, {
          "X-RateLimit-Limit": String(count),
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": String(windowSeconds - 1),
          "Retry-After": String(windowSeconds - 1),
        });
        assert.equal(
          refused.detail,
          `Rate limit exceeded for ${row.category}: ${count} requests per ${windowSeconds} seconds. Retry after ${windowSeconds - 1} s.`,
        );

        assert.equal((await limiter.check(otherCaller(row.identity, req))).allowed, true, "another caller has its own budget");

        time.advance(windowSeconds * 1000 - 1_001);
        assert.equal((await limiter.check(req)).allowed, false, "still refused 1 ms before the window ends");
        time.advance(1);
        const reopened = await limiter.check(req);
        assert.equal(reopened.allowed, true);
        assert.equal(reopened.headers["X-RateLimit-Remaining"], String(count - 1));
        await limiter.close();
      });
    }
  });
}

describe("several rows on one request", () => {
  test("a request refused by one row is not charged to the others", async () => {
    const limiter = createRateLimiter({ region: "us", now: clock().now });
    const both: RateLimitRequest = { method: "POST", path: "/runs/query", ip: IP, apiKey: "k", userId: "u" };
    for (let i = 0; i < 15; i++) assert.equal((await limiter.check(both)).allowed, true);
    for (let i = 0; i < 5; i++) {
      const refused = await limiter.check(both);
      assert.equal(refused.allowed, false);
      assert.match(refused.detail!, /Run query \(API\): 15 requests per 10 seconds/);
    }
    const userOnly = await limiter.check({ method: "POST", path: "/runs/query", ip: IP, userId: "u" });
    assert.equal(userOnly.allowed, true);
    assert.equal(userOnly.headers["X-RateLimit-Remaining"], String(300 - 16));
  });

  test("headers describe the row with the fewest requests left", async () => {
    const time = clock();
    const limiter = createRateLimiter({ region: "us", now: time.now });
    const req: RateLimitRequest = { method: "GET", path: "/info", ip: IP, apiKey: "k" };
    const first = await limiter.check(req);
    assert.deepEqual(first.headers, { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "999", "X-RateLimit-Reset": "10" });
    time.advance(3_200);
    const second = await limiter.check(req);
    assert.deepEqual(second.headers, { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "998", "X-RateLimit-Reset": "7" });
  });

  test("the IP row of /info is shared by all callers from one address, keyed or not", async () => {
    const limiter = createRateLimiter({ region: "us", now: clock().now });
    for (let i = 0; i < 2000; i++) {
      const decision = await limiter.check({ method: "GET", path: "/info", ip: IP, apiKey: i % 2 ? `k${i}` : undefined });
      assert.equal(decision.allowed, true);
    }
    const refused = await limiter.check({ method: "GET", path: "/info", ip: IP, apiKey: "fresh" });
    assert.equal(refused.allowed, false);
    assert.match(refused.detail!, /^Rate limit exceeded for High throughput: 2000 requests per 10 seconds/);
  });

  test("when several rows refuse, Retry-After waits for the one that reopens last", () => {
    const row = (id: string) => LIMIT_TABLE.find((r) => r.id === id)!;
    const decision = decide(false, [
      { row: row("runs-query-api-key"), limit: 15, windowSeconds: 10, state: { count: 15, resetMs: 4_000 } },
      { row: row("runs-query-user"), limit: 300, windowSeconds: 10, state: { count: 300, resetMs: 8_500 } },
      { row: row("high-throughput-public"), limit: 2000, windowSeconds: 10, state: { count: 5, resetMs: 9_900 } },
    ]);
    assert.equal(decision.retryAfterSeconds, 9);
    assert.equal(decision.headers["X-RateLimit-Limit"], "300");
    assert.equal(decision.detail, "Rate limit exceeded for Run query (User): 300 requests per 10 seconds. Retry after 9 s.");
  });
});

test("counter keys name the row and a digest, never the raw identity", () => {
  const secret = "lsv2_sk_0123456789abcdef";
  const [applied] = applicableRows({ method: "POST", path: "/runs/query", ip: IP, apiKey: secret });
  const k = counterKey(applied!);
  assert.match(k, /^runs-query-api-key:[A-Za-z0-9_-]{22}$/);
  assert.ok(!k.includes(secret) && !k.includes("0123456789"));
  assert.notEqual(k, counterKey({ ...applied!, identityValue: `${secret}x` }));
});
