import { test } from "node:test";
import assert from "node:assert/strict";
import { resetEnv } from "../env";
import { rateLimiter } from "./index";

test("RATE_LIMITS=off admits every request and sends no headers, from one process-wide limiter", async () => {
  process.env.RATE_LIMITS = "off";
  resetEnv();
  const limiter = rateLimiter();
  assert.equal(rateLimiter(), limiter);
  for (let i = 0; i < 20; i++) {
    assert.deepEqual(await limiter.check({ method: "POST", path: "/runs/stats", ip: "127.0.0.1", apiKey: "k" }), {
      allowed: true,
      headers: {},
    });
  }
});
