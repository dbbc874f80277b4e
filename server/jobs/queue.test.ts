import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { inFlight, stopJobs } from "./queue";

test("stopJobs waits for upkeep in flight (a claim woken by ingest), failed or not", async () => {
  const finished: string[] = [];
  const ok = inFlight(sleep(50).then(() => (finished.push("claim"), "claimed")));
  const failing = inFlight(sleep(30).then(() => Promise.reject(new Error("database gone"))));
  failing.catch(() => finished.push("failed claim"));
  await stopJobs();
  assert.deepEqual(finished.sort(), ["claim", "failed claim"]);
  assert.equal(await ok, "claimed", "inFlight returns the work itself");
});
