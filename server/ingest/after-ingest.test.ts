import assert from "node:assert/strict";
import { test } from "node:test";
import type { Sql } from "../db/client";
import { afterIngest, runsStored } from "./after-ingest";

test("after ingest: every registered hook gets the stored runs; one failing costs the others nothing; nothing for no runs", async () => {
  const seen: string[][] = [];
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    afterIngest("test: failing", async () => {
      throw new Error("boom");
    });
    afterIngest("test: recording", async (_db, workspaceId, ids) => void seen.push([workspaceId, ...ids]));
    runsStored({} as Sql, "ws", []);
    runsStored({} as Sql, "ws", ["r1", "r2"]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(seen, [["ws", "r1", "r2"]]);
    assert.match(String((errors[0] as unknown[])[0]), /test: failing failed after ingest/);
    // Registering under the same name replaces the hook.
    afterIngest("test: recording", async () => void seen.push(["replaced"]));
    runsStored({} as Sql, "ws", ["r3"]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(seen.at(-1), ["replaced"]);
  } finally {
    console.error = log;
  }
});
