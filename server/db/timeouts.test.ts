import { test } from "node:test";
import assert from "node:assert/strict";
import { resetEnv } from "../env";
import { dataErrorDetail } from "../core/errors";
import { openDatabase } from "./client";
import { isDatabaseUnavailable } from "./outage";
import { sql } from "./sql";
import { scratchDatabase } from "./scratch";

const url = process.env.TEST_DATABASE_URL;

test(
  "PostgreSQL: reads past STATEMENT_TIMEOUT_MS are cancelled and told to narrow; ingest's own pool is not held to it",
  { skip: !url && "TEST_DATABASE_URL is not set" },
  async () => {
    const scratch = await scratchDatabase(url!);
    process.env.STATEMENT_TIMEOUT_MS = "200";
    resetEnv();
    const db = await openDatabase({ url: scratch.url });
    try {
      const slow = await db.sql.query(sql`SELECT pg_sleep(1)`).then(
        () => null,
        (error: unknown) => error,
      );
      assert.ok(slow, "the slow read was cancelled");
      assert.match(dataErrorDetail(slow) ?? "", /took too long and was cancelled; narrow it/);
      await db.ingestSql.query(sql`SELECT pg_sleep(0.5)`);
    } finally {
      delete process.env.STATEMENT_TIMEOUT_MS;
      resetEnv();
      await db.close();
      await scratch.drop();
    }
  },
);

test("an unreachable PostgreSQL is told apart from other failures (it is answered 503, not 500)", async () => {
  const db = await openDatabase({ url: "postgres://nobody@127.0.0.1:1/none" });
  try {
    const error = await db.sql.query(sql`SELECT 1`).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(isDatabaseUnavailable(error), String(error));
    assert.equal(isDatabaseUnavailable(new Error("syntax error at or near")), false);
  } finally {
    await db.close();
  }
});
