import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { createRateLimiter } from "./limiter";

async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

test("with Redis unreachable, checks answer promptly from this instance's memory and the outage is logged once", async () => {
  const warnings: string[] = [];
  const limiter = createRateLimiter({ region: "us", redisUrl: `redis://127.0.0.1:${await closedPort()}`, warn: (m) => warnings.push(m) });
  try {
    const req = { method: "POST", path: "/runs/query", ip: "127.0.0.1", apiKey: "k" };
    for (let i = 1; i <= 15; i++) {
      const started = performance.now();
      const decision = await limiter.check(req);
      assert.ok(performance.now() - started < 700, `check ${i} took ${performance.now() - started} ms`);
      assert.equal(decision.allowed, true);
      assert.equal(decision.headers["X-RateLimit-Remaining"], String(15 - i));
    }
    const refused = await limiter.check(req);
    assert.equal(refused.allowed, false);
    assert.equal(refused.headers["Retry-After"], "10");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /Redis unavailable .*counting in this instance's memory/);
  } finally {
    await limiter.close();
  }
});
