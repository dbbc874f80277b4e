import { test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase } from "./client";
import { sql } from "./sql";

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
