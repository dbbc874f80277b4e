/**
 * Fuzzing ingest and queries against the real database (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): a batch of arbitrary runs is stored or refused run by run, every accepted run
 * reads back exactly as sent, and any filter either runs or is refused with a 4xx.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { createWorkspace } from "../auth/workspaces";
import { withTestDatabases } from "../db/test-databases";
import { ingestBatch } from "../ingest/service";
import { queryRuns } from "../runs/query";
import { readRun } from "../runs/read";
import { runQueryBody, runQueryFromWire } from "../runs/schema";
import { anyJson, anyText, FUZZ_RUNS, refusedOrDone } from "./arbitraries";

const settings = { numRuns: Math.max(10, Math.ceil(FUZZ_RUNS / 5)) };
const time = fc.oneof(
  fc.date({ min: new Date("1970-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
  fc.double(),
  anyText,
  fc.constant(null),
);
const usage = fc.record(
  { input_tokens: fc.oneof(fc.nat(), fc.integer(), fc.double()), output_tokens: fc.nat(), total_tokens: fc.oneof(fc.nat(), fc.double()) },
  { requiredKeys: [] },
);
const run = fc.record(
  {
    id: fc.uuid({ version: 4 }),
    name: anyText,
    run_type: fc.oneof(fc.constantFrom("llm", "chain", "tool", "retriever", "prompt", "parser", "embedding"), anyText),
    start_time: time,
    end_time: fc.option(time),
    inputs: fc.dictionary(anyText, anyJson, { maxKeys: 3 }),
    outputs: fc.option(
      fc.oneof(
        fc.dictionary(anyText, anyJson, { maxKeys: 3 }),
        usage.map((u) => ({ usage_metadata: u })),
      ),
    ),
    error: fc.option(anyText),
    tags: fc.option(fc.array(anyText, { maxLength: 3 })),
    extra: fc.option(fc.record({ metadata: fc.dictionary(anyText, anyJson, { maxKeys: 3 }) })),
    session_name: fc.option(anyText),
  },
  { requiredKeys: ["id", "name", "run_type"] },
);

/** What a client sends is JSON: the values as they read back after a JSON round trip. */
const asSent = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

withTestDatabases("fuzz: ingest and queries", (open) => {
  test("a batch of arbitrary runs: each is stored or refused on its own, and every stored one reads back as sent", async () => {
    const db = await open();
    const ws = (await createWorkspace(db.prisma, "fuzz")).id;
    await fc.assert(
      fc.asyncProperty(fc.array(run, { minLength: 1, maxLength: 5 }), async (runs) => {
        const post = runs.map((r) => ({ ...r, id: randomUUID() }));
        const result = await refusedOrDone(() => ingestBatch(db.sql, ws, { post }));
        if (!result) return;
        const refused = new Set(result.rejected.map((r) => r.id));
        for (const sent of post.filter((r) => !refused.has(r.id))) {
          const stored = await readRun(db.sql, ws, sent.id);
          assert.ok(stored, `run ${sent.id} was acknowledged but is not stored`);
          assert.equal(stored.name, sent.name);
          if (sent.inputs !== undefined) assert.deepEqual(stored.inputs, asSent(sent.inputs));
          if (sent.error !== undefined && sent.error !== null) assert.equal(stored.error, sent.error);
        }
      }),
      settings,
    );
  });

  test("any filter, search or query text either runs or is refused with a 4xx", async () => {
    const db = await open();
    const ws = (await createWorkspace(db.prisma, "fuzz-query")).id;
    const field = fc.constantFrom(
      "name",
      "run_type",
      "latency",
      "start_time",
      "tags",
      "metadata",
      "inputs",
      "outputs",
      "error",
      "total_tokens",
      "total_cost",
      "feedback_key",
      "feedback_score",
      "thread_id",
    );
    const op = fc.constantFrom("eq", "neq", "gt", "gte", "lt", "lte", "has", "like", "search", "in");
    const value = fc.oneof(
      anyText.map((t) => JSON.stringify(t)),
      fc.double().map(String),
      fc.integer().map(String),
      fc.constantFrom("true", "null", '["a", 1]', '"2026-01-01T00:00:00Z"', '"9999-12-31"'),
    );
    const filter = fc.oneof(
      fc.tuple(op, field, value).map(([o, f, v]) => `${o}(${f}, ${v})`),
      anyText,
    );
    await fc.assert(
      fc.asyncProperty(filter, fc.option(anyText), async (source, query) => {
        const body = await refusedOrDone(() => runQueryFromWire(runQueryBody.parse({ filter: source, query, limit: 5 })));
        if (body) await refusedOrDone(() => queryRuns(db.sql, ws, body));
      }),
      settings,
    );
  });
});
