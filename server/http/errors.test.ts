import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type AddressInfo } from "node:net";
import { openDatabase } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { postgresTools, startReplicatedPostgres } from "../db/test-replica";
import { errorResponse } from "./errors";

/**
 * A server answering every connection as PostgreSQL does during crash recovery: an ErrorResponse
 * (FATAL, SQLSTATE 57P03) to the startup message, then closing the connection.
 */
async function recoveringPostgres(): Promise<{ url: string; close: () => void }> {
  const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(`${value}\0`)]);
  const fields = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", "57P03"),
    field("M", "the database system is not yet accepting connections"),
    field("D", "Consistent recovery state has not been yet reached."),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  const answer = Buffer.concat([Buffer.from("E"), length, fields]);
  const server = createServer((socket) => socket.once("data", () => socket.end(answer)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, close: () => server.close() };
}

test("57P03 (not yet accepting connections) through Prisma and through raw SQL is a 503 with Retry-After", async () => {
  const recovering = await recoveringPostgres();
  const db = await openDatabase({ url: recovering.url });
  try {
    for (const failure of [db.prisma.invite.count().catch((e: unknown) => e), db.sql.query(sql`SELECT 1`).catch((e: unknown) => e)]) {
      const response = errorResponse(await failure);
      assert.equal(response.status, 503, JSON.stringify(await response.clone().json()));
      assert.equal(response.headers.get("retry-after"), "5");
    }
  } finally {
    await db.close();
    recovering.close();
  }
});

withTestDatabases("the error mapper", (open) => {
  test("an interactive transaction that expires (Prisma P2028) is a 503 busy with Retry-After", async () => {
    const db = await open();
    const expired = await db.prisma
      .$transaction(
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return tx.invite.count();
        },
        { timeout: 50 },
      )
      .catch((error: unknown) => error);
    assert.equal((expired as { code?: string }).code, "P2028");
    const response = errorResponse(expired);
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "5");
    assert.match((await response.json()).detail, /busy.*retry/);
  });
});

test(
  "PostgreSQL stopped (-m immediate) under a pool's open transaction and idle connections: no uncaughtException",
  { skip: !postgresTools() },
  async () => {
    const cluster = await startReplicatedPostgres();
    const db = await openDatabase({ url: cluster.primaryUrl });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      await Promise.all([db.sql.query(sql`SELECT 1`), db.sql.query(sql`SELECT 2`)]);
      const inTransaction = db.sql
        .tx(async (tx) => {
          await tx.query(sql`SELECT 1`);
          await cluster.stop();
          await new Promise((resolve) => setTimeout(resolve, 500));
          return tx.query(sql`SELECT 2`);
        })
        .catch((error: unknown) => error);
      const failure = await inTransaction;
      assert.ok(failure instanceof Error, "the transaction's next statement fails");
      assert.equal(errorResponse(failure).status, 503);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(uncaught, []);
    } finally {
      process.off("uncaughtException", record);
      await db.close().catch(() => undefined);
      await cluster.stop();
    }
  },
);
