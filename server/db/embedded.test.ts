import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "./client";
import { EMBEDDED_SHARED_BUFFERS } from "./deadline.mjs";
import { sql } from "./sql";

test("embedded: the buffer pool is EMBEDDED_SHARED_BUFFERS (not initdb's 128MB), or what the server is told", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tl-embedded-"));
  try {
    for (const [sharedBuffers, expected] of [
      [undefined, EMBEDDED_SHARED_BUFFERS],
      ["16MB", "16MB"],
    ] as const) {
      const db = await openDatabase({ dataDir: dir, sharedBuffers });
      try {
        const [row] = await db.sql.query<{ shared_buffers: string }>(sql`SHOW shared_buffers`);
        assert.equal(row.shared_buffers, expected);
      } finally {
        await db.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("embedded: a read waits behind the running transaction only, not behind every queued one", async (t) => {
  const db = await openDatabase({ dataDir: "memory" });
  t.after(() => db.close());
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const first = db.sql.tx(async (tx) => {
    started();
    await tx.query(sql`SELECT 1`);
    await held;
    order.push("first");
  });
  await running;
  const failing = db.sql.tx(async () => {
    throw new Error("refused");
  });
  const queued = [1, 2].map((i) =>
    db.sql.tx(async (tx) => {
      await tx.query(sql`SELECT ${i}::int`);
      order.push(`tx${i}`);
    }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  const read = db.sql.query(sql`SELECT 1`).then(() => order.push("read"));
  release();
  await assert.rejects(failing, /refused/);
  await Promise.all([first, ...queued, read]);
  assert.deepEqual(order, ["first", "read", "tx1", "tx2"], "a failed transaction does not hold up the next");
});
