import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server, type Socket, connect } from "node:net";
import { Redis } from "ioredis";
import { createRateLimiter, type RateLimiter } from "./limiter";
import { RedisCounterStore } from "./redis-store";

const REDIS_URL = process.env.TEST_REDIS_URL;
const PREFIX = `tracelight-test:rl:${randomUUID()}:`;
const query = (apiKey: string) => ({ method: "POST", path: "/runs/query", ip: "127.0.0.1", apiKey });

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

/** A TCP relay to Redis that the test can cut and restore, to stage an outage on a live server. */
function relayTo(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => undefined);
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { open, cut, url: () => `redis://127.0.0.1:${port}` };
}

describe("Redis counters", { skip: REDIS_URL ? false : "TEST_REDIS_URL not set" }, () => {
  const limiters: RateLimiter[] = [];
  const limiter = (options: { keyPrefix?: string; redisUrl?: string; warn?: (m: string) => void } = {}) => {
    const created = createRateLimiter({
      region: "us",
      redisUrl: REDIS_URL,
      keyPrefix: PREFIX,
      warn: () => assert.fail("Redis fell back"),
      ...options,
    });
    limiters.push(created);
    return created;
  };
  let admin: Redis;

  before(() => {
    admin = new Redis(REDIS_URL!);
  });

  after(async () => {
    await Promise.all(limiters.map((l) => l.close()));
    const keys = await keysUnder(admin, PREFIX);
    if (keys.length) await admin.del(...keys);
    assert.deepEqual(await keysUnder(admin, PREFIX), []);
    await admin.quit();
  });

  test("two limiter instances share one budget", async () => {
    const [a, b] = [limiter(), limiter()];
    for (let i = 1; i <= 15; i++) {
      const decision = await (i % 2 ? a : b).check(query("shared"));
      assert.equal(decision.allowed, true, `request ${i}`);
      assert.equal(decision.headers["X-RateLimit-Remaining"], String(15 - i));
      assert.equal(decision.headers["X-RateLimit-Limit"], "15");
    }
    for (const instance of [a, b]) {
      const refused = await instance.check(query("shared"));
      assert.equal(refused.allowed, false);
      assert.ok(Number(refused.headers["Retry-After"]) >= 9 && Number(refused.headers["Retry-After"]) <= 10);
      assert.match(refused.detail!, /^Rate limit exceeded for Run query \(API\): 15 requests per 10 seconds\. Retry after (9|10) s\.$/);
    }
    assert.equal((await a.check(query("another key"))).allowed, true);
  });

  test("Redis holds digests, never the raw key, with the row's window as TTL", async () => {
    const secret = `lsv2_sk_${randomUUID()}`;
    await limiter().check(query(secret));
    const keys = await keysUnder(admin, PREFIX);
    assert.ok(keys.length > 0);
    assert.ok(keys.every((k) => !k.includes(secret) && !k.includes(secret.slice(8))));
    const queryKeys = keys.filter((k) => k.startsWith(`${PREFIX}runs-query-api-key:`));
    for (const k of queryKeys) {
      const ttl = await admin.pttl(k);
      assert.ok(ttl > 0 && ttl <= 10_000, `ttl ${ttl}`);
    }
  });

  test("a refused request is charged to no counter", async () => {
    const l = limiter();
    const both = { ...query("k-both"), userId: "u-both" };
    for (let i = 0; i < 15; i++) assert.equal((await l.check(both)).allowed, true);
    for (let i = 0; i < 3; i++) assert.equal((await l.check(both)).allowed, false);
    const userOnly = await l.check({ method: "POST", path: "/runs/query", ip: "127.0.0.1", userId: "u-both" });
    assert.equal(userOnly.headers["X-RateLimit-Remaining"], String(300 - 16));
  });

  test("a window ends with its TTL and counting starts again", async () => {
    const store = new RedisCounterStore({ url: REDIS_URL!, keyPrefix: PREFIX, timeoutMs: 1_000 });
    try {
      const counter = { key: `short-${randomUUID()}`, limit: 2, windowMs: 300 };
      assert.deepEqual(
        (await store.consume([counter])).states.map((s) => s.count),
        [1],
      );
      assert.equal((await store.consume([counter])).allowed, true);
      const refused = await store.consume([counter]);
      assert.equal(refused.allowed, false);
      assert.ok(refused.states[0]!.resetMs > 0 && refused.states[0]!.resetMs <= 300);
      await new Promise((r) => setTimeout(r, 350));
      assert.deepEqual(await store.consume([counter]), { allowed: true, states: [{ count: 1, resetMs: 300 }] });
    } finally {
      await store.close();
    }
  });

  test("an outage falls back to memory within the timeout, and counting returns to Redis when it is back", async () => {
    const relay = relayTo(new URL(REDIS_URL!));
    await relay.open();
    const warnings: string[] = [];
    const l = limiter({ redisUrl: relay.url(), warn: (m) => warnings.push(m) });
    const outageKey = `outage-${randomUUID()}`;
    assert.equal((await l.check(query(outageKey))).headers["X-RateLimit-Remaining"], "14");

    await relay.cut();
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const decision = await l.check(query(outageKey));
      assert.ok(performance.now() - started < 700, `check took ${performance.now() - started} ms`);
      assert.equal(decision.allowed, true);
    }
    // Memory knew nothing of the request counted in Redis: this instance fails open on its own budget.
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /Redis unavailable/);

    await relay.open();
    const deadline = Date.now() + 5_000;
    let remaining = "";
    while (Date.now() < deadline) {
      remaining = (await l.check(query(outageKey))).headers["X-RateLimit-Remaining"]!;
      if (warnings.length > 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(warnings.length, 2, "recovery is logged");
    assert.match(warnings[1]!, /reachable again/);
    assert.equal(remaining, "13", "back in Redis, where one request had been counted before the outage");
    await l.close();
    await relay.cut();
  });
});
