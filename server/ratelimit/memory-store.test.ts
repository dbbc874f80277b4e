import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryCounterStore } from "./memory-store";

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

test("a window counts up to its limit, refuses without counting, and starts again when it ends", async () => {
  const time = clock();
  const store = new MemoryCounterStore({ now: time.now });
  const counter = { key: "k", limit: 2, windowMs: 1_000 };
  assert.deepEqual(await store.consume([counter]), { allowed: true, states: [{ count: 1, resetMs: 1_000 }] });
  time.advance(400);
  assert.deepEqual(await store.consume([counter]), { allowed: true, states: [{ count: 2, resetMs: 600 }] });
  assert.deepEqual(await store.consume([counter]), { allowed: false, states: [{ count: 2, resetMs: 600 }] });
  time.advance(600);
  assert.deepEqual(await store.consume([counter]), { allowed: true, states: [{ count: 1, resetMs: 1_000 }] });
});

test("consume is all-or-nothing across counters", async () => {
  const store = new MemoryCounterStore({ now: clock().now });
  const tight = { key: "tight", limit: 1, windowMs: 1_000 };
  const loose = { key: "loose", limit: 10, windowMs: 5_000 };
  assert.equal((await store.consume([tight, loose])).allowed, true);
  const refused = await store.consume([tight, loose]);
  assert.equal(refused.allowed, false);
  assert.deepEqual(refused.states, [
    { count: 1, resetMs: 1_000 },
    { count: 1, resetMs: 5_000 },
  ]);
  assert.deepEqual((await store.consume([loose])).states, [{ count: 2, resetMs: 5_000 }]);
});

test("ended windows are evicted on the sweep schedule", async () => {
  const time = clock();
  const store = new MemoryCounterStore({ now: time.now, sweepEveryMs: 1_000 });
  for (let i = 0; i < 500; i++) await store.consume([{ key: `short-${i}`, limit: 5, windowMs: 500 }]);
  await store.consume([{ key: "long", limit: 5, windowMs: 60_000 }]);
  assert.equal(store.size, 501);
  time.advance(1_000);
  await store.consume([{ key: "fresh", limit: 5, windowMs: 500 }]);
  assert.equal(store.size, 2, "only the long window and the fresh one remain");
});

test("the number of live windows stays bounded, dropping the oldest", async () => {
  const store = new MemoryCounterStore({ now: clock().now, maxEntries: 100 });
  for (let i = 0; i < 1_000; i++) await store.consume([{ key: `k${i}`, limit: 5, windowMs: 60_000 }]);
  assert.ok(store.size <= 100, `size ${store.size}`);
  // The newest caller kept its count; the oldest ones were dropped and start again.
  assert.equal((await store.consume([{ key: "k999", limit: 5, windowMs: 60_000 }])).states[0]!.count, 2);
  assert.equal((await store.consume([{ key: "k0", limit: 5, windowMs: 60_000 }])).states[0]!.count, 1);
});
