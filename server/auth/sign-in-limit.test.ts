import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryCounterStore } from "../ratelimit/memory-store";
import { RedisCounterStore } from "../ratelimit/redis-store";
import { MAX_FAILURES, WINDOW_MS, recordSignIn, signInBlocked } from "./sign-in-limit";

test("sign-in attempts: blocked after the failures limit per e-mail and address, until the window ends", async () => {
  let now = 1_000_000;
  const store = new MemoryCounterStore({ now: () => now });
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal(await signInBlocked("Eve@example.com", "10.0.0.1", store), false);
    await recordSignIn("eve@example.com", "10.0.0.1", false, store);
  }
  now += 1;
  assert.equal(await signInBlocked("EVE@example.com", "10.0.0.1", store), true);
  assert.equal(await signInBlocked("eve@example.com", "10.0.0.2", store), false, "another address is not blocked");
  assert.equal(await signInBlocked("ada@example.com", "10.0.0.1", store), false, "another e-mail is not blocked");
  now += WINDOW_MS;
  assert.equal(await signInBlocked("eve@example.com", "10.0.0.1", store), false, "the window ends");
});

test("a successful sign-in clears the failures", async () => {
  const store = new MemoryCounterStore();
  for (let i = 0; i < MAX_FAILURES - 1; i++) await recordSignIn("bob@example.com", "ip", false, store);
  await recordSignIn("bob@example.com", "ip", true, store);
  await recordSignIn("bob@example.com", "ip", false, store);
  assert.equal(await signInBlocked("bob@example.com", "ip", store), false);
});

test(
  "with Redis, failures counted by one instance block the attempt at another",
  { skip: !process.env.TEST_REDIS_URL && "TEST_REDIS_URL is not set" },
  async () => {
    const keyPrefix = `tracelight:test:signin:${process.pid}:${Date.now()}:`;
    const options = { url: process.env.TEST_REDIS_URL!, keyPrefix, timeoutMs: 2_000 };
    const [one, two] = [new RedisCounterStore(options), new RedisCounterStore(options)];
    try {
      for (let i = 0; i < MAX_FAILURES; i++) await recordSignIn("mallory@example.com", "10.9.9.9", false, one);
      assert.equal(await signInBlocked("mallory@example.com", "10.9.9.9", two), true);
      await recordSignIn("mallory@example.com", "10.9.9.9", true, two);
      assert.equal(await signInBlocked("mallory@example.com", "10.9.9.9", one), false);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  },
);
