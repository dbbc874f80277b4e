import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { AppError } from "../core/errors";
import { ingestLangfuseBatch } from "./ingestion";
import { listLangfuseScores, readLangfuseObservation, readLangfuseTrace } from "./read";

const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 9, 0, s)).toISOString();
let seq = 0;
const event = (type: string, body: Record<string, unknown>) => ({ id: `read-evt-${++seq}`, type, timestamp: at(9), body });

withTestDatabases("langfuse reads", (open) => {
  let db: Sql;
  let ws: string;
  test("setup: one trace sent with ids that are not UUIDs", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "langfuse reads")).id;
    const answer = await ingestLangfuseBatch(db, ws, "pk-read", [
      event("trace-create", { id: "tr-1", timestamp: at(0), name: "t", userId: "u-1", sessionId: "s-1", input: "q", metadata: { k: "v" } }),
      event("span-create", { id: "sp-1", traceId: "tr-1", name: "s", startTime: at(1), endTime: at(5) }),
      event("generation-create", {
        id: "gen-1",
        traceId: "tr-1",
        parentObservationId: "sp-1",
        name: "g",
        startTime: at(2),
        endTime: at(4),
        completionStartTime: at(3),
        model: "gpt-4o-mini",
        input: [{ role: "user", content: "q" }],
        output: "a",
        usageDetails: { input: 5, output: 2 },
        costDetails: { total: 0.01 },
      }),
      event("score-create", { id: "sc-1", traceId: "tr-1", name: "quality", value: 0.5 }),
      event("score-create", { id: "sc-2", traceId: "tr-1", observationId: "gen-1", name: "label", value: "good", dataType: "CATEGORICAL" }),
    ]);
    assert.deepEqual(answer.errors, []);
  });

  test("a trace reads back by the id it was sent with, observations and scores named as sent", async () => {
    const trace = await readLangfuseTrace(db, ws, "pk-read", "tr-1");
    assert.equal(trace.id, "tr-1");
    assert.equal(trace.name, "t");
    assert.equal(trace.input, "q");
    assert.equal(trace.userId, "u-1");
    assert.equal(trace.sessionId, "s-1");
    assert.deepEqual(trace.metadata, { k: "v" });
    assert.deepEqual(
      trace.observations.map((o) => [o.id, o.type, o.parentObservationId]),
      [
        ["sp-1", "SPAN", null],
        ["gen-1", "GENERATION", "sp-1"],
      ],
    );
    const gen = trace.observations[1];
    assert.deepEqual(gen.input, [{ role: "user", content: "q" }]);
    assert.equal(gen.output, "a");
    assert.equal(gen.model, "gpt-4o-mini");
    assert.deepEqual(gen.usage, { input: 5, output: 2, total: 7, unit: "TOKENS" });
    assert.equal(gen.calculatedTotalCost, 0.01);
    assert.equal(gen.timeToFirstToken, 1);
    assert.deepEqual(trace.scores.map((s) => [s.id, s.name, s.value, s.stringValue, s.observationId, s.traceId]).sort(), [
      ["sc-1", "quality", 0.5, undefined, null, "tr-1"],
      ["sc-2", "label", null, "good", "gen-1", "tr-1"],
    ]);
  });

  test("an observation reads back alone; another public key's project does not see it", async () => {
    const gen = await readLangfuseObservation(db, ws, "pk-read", "gen-1");
    assert.equal(gen.traceId, "tr-1");
    assert.equal(gen.parentObservationId, "sp-1");
    await assert.rejects(readLangfuseObservation(db, ws, "pk-other", "gen-1"), (e: AppError) => e.status === 404);
    await assert.rejects(readLangfuseTrace(db, ws, "pk-read", "sp-1"), (e: AppError) => e.status === 404, "a span is not a trace");
    await assert.rejects(readLangfuseTrace(db, ws, "pk-read", "no-such"), (e: AppError) => e.status === 404);
  });

  test("scores list a page at a time, filtered by trace, observation and name, per project", async () => {
    const all = await listLangfuseScores(db, ws, "pk-read", { page: 1, limit: 1, traceId: "tr-1" });
    assert.equal(all.data.length, 1);
    assert.deepEqual(all.meta, { page: 1, limit: 1, totalItems: 2, totalPages: 2 });
    const named = await listLangfuseScores(db, ws, "pk-read", { page: 1, limit: 50, name: "label" });
    assert.deepEqual(
      named.data.map((s) => s.id),
      ["sc-2"],
    );
    const onGen = await listLangfuseScores(db, ws, "pk-read", { page: 1, limit: 50, observationId: "gen-1" });
    assert.deepEqual(
      onGen.data.map((s) => s.id),
      ["sc-2"],
    );
    assert.equal((await listLangfuseScores(db, ws, "pk-other", { page: 1, limit: 50 })).meta.totalItems, 0);
  });
});
