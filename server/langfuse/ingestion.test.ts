import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { runIdOf } from "./ids";
import { ingestLangfuseBatch } from "./ingestion";

let seq = 0;
const event = (type: string, body: Record<string, unknown>, timestamp = "2026-11-20T10:00:05.000Z") => ({
  id: `evt-${++seq}`,
  type,
  timestamp,
  body,
});

async function run(db: Sql, langfuseId: string) {
  const [r] = await db.query<Record<string, any>>(sql`
    SELECT r.id, r.name, r.run_type, r.parent_run_id, r.trace_id, r.start_time, r.end_time, r.error, r.status, r.inputs,
      r.outputs, r.extra, r.tags, r.thread_id, r.prompt_tokens, r.completion_tokens, r.total_tokens, r.total_cost,
      r.first_token_time, r.model, r.placement_pending, r.is_root, p.name AS project
    FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.id = ${runIdOf(langfuseId)}`);
  return r;
}

/** The columns a reader sees, with times as epoch ms, for comparing two ingests of the same events. */
const visible = (r: Record<string, any>) => ({
  ...r,
  id: undefined,
  trace_id: undefined,
  parent_run_id: undefined,
  start_time: new Date(r.start_time).getTime(),
  end_time: r.end_time && new Date(r.end_time).getTime(),
  first_token_time: r.first_token_time && new Date(r.first_token_time).getTime(),
  extra: JSON.stringify(Object.entries(r.extra.metadata).sort()),
});

withTestDatabases("langfuse ingestion", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "langfuse tests")).id;
  });

  test("a batch becomes a trace of runs with tokens, reported cost, first token and feedback, answered per event", async () => {
    const [traceId, spanId, genId, evId] = ["lf-trace-1", "lf-span-1", "lf-gen-1", "lf-event-1"];
    const batch = [
      event("trace-create", {
        id: traceId,
        timestamp: "2026-11-20T10:00:00.000Z",
        name: "chat-turn",
        userId: "user-7",
        sessionId: "conv-42",
        input: "hello?",
        tags: ["prod"],
        metadata: { team: "search" },
        release: "r-12",
      }),
      event("span-create", { id: spanId, traceId, name: "retrieve", startTime: "2026-11-20T10:00:01.000Z", input: { q: "x" } }),
      event("generation-create", {
        id: genId,
        traceId,
        parentObservationId: spanId,
        name: "llm",
        startTime: "2026-11-20T10:00:02.000Z",
        model: "gpt-4o-mini",
        modelParameters: { temperature: 0.2 },
        input: [{ role: "user", content: "hello?" }],
      }),
      event("generation-update", {
        id: genId,
        traceId,
        endTime: "2026-11-20T10:00:04.000Z",
        completionStartTime: "2026-11-20T10:00:02.500Z",
        output: "hi there",
        usageDetails: { input: 80, input_cached_tokens: 20, output: 30 },
        costDetails: { input: 0.001, output: 0.002 },
      }),
      event("span-update", { id: spanId, traceId, endTime: "2026-11-20T10:00:04.500Z", output: { docs: 2 } }),
      event("event-create", { id: evId, traceId, parentObservationId: spanId, name: "cache-miss", startTime: "2026-11-20T10:00:01.500Z" }),
      event("score-create", { id: "lf-score-1", traceId, name: "quality", value: 0.9, comment: "good" }),
      event("score-create", { id: "lf-score-2", traceId, observationId: genId, name: "tone", value: "friendly", dataType: "CATEGORICAL" }),
      event("score-create", { id: "lf-score-3", traceId, name: "resolved", value: 1, dataType: "BOOLEAN" }),
      event("sdk-log", { log: "flushed" }),
    ];
    const answer = await ingestLangfuseBatch(db, ws, "pk-lf-demo", batch);
    assert.deepEqual(answer.errors, []);
    assert.deepEqual(
      answer.successes.map((s) => [s.id, s.status]),
      batch.map((e) => [e.id, 201]),
    );

    const root = await run(db, traceId);
    assert.equal(root.name, "chat-turn");
    assert.equal(root.is_root, true);
    assert.equal(root.project, "pk-lf-demo");
    assert.equal(root.thread_id, "conv-42");
    assert.deepEqual(root.tags, ["prod"]);
    assert.deepEqual(root.inputs, { input: "hello?" });
    assert.equal(root.extra.metadata.user_id, "user-7");
    assert.equal(root.extra.metadata.team, "search");
    assert.equal(root.extra.metadata.release, "r-12");
    assert.equal(root.extra.metadata.langfuse_trace_id, traceId);
    assert.equal(new Date(root.start_time).toISOString(), "2026-11-20T10:00:00.000Z");
    assert.ok(
      new Date(root.end_time).getTime() >= Date.parse("2026-11-20T10:00:05.000Z"),
      "the root ends when the SDK last touched the trace",
    );

    const span = await run(db, spanId);
    assert.equal(span.run_type, "chain");
    assert.equal(span.parent_run_id, root.id);
    assert.equal(span.trace_id, root.id);
    assert.deepEqual(span.outputs, { docs: 2 });

    const gen = await run(db, genId);
    assert.equal(gen.run_type, "llm");
    assert.equal(gen.parent_run_id, span.id);
    assert.equal(gen.trace_id, root.id);
    assert.equal(gen.placement_pending, false);
    assert.equal(gen.model, "gpt-4o-mini");
    assert.deepEqual(gen.extra.invocation_params, { temperature: 0.2 });
    assert.deepEqual(gen.inputs, { messages: [{ role: "user", content: "hello?" }] });
    assert.equal(gen.outputs.choices[0].message.content, "hi there");
    // Langfuse counts cached input apart from `input`; our prompt tokens include it.
    assert.equal(gen.prompt_tokens, 100);
    assert.equal(gen.completion_tokens, 30);
    assert.equal(gen.total_tokens, 130);
    assert.equal(Number(gen.total_cost), 0.003, "costDetails win over the price table");
    assert.equal(new Date(gen.first_token_time).toISOString(), "2026-11-20T10:00:02.500Z");

    const ev = await run(db, evId);
    assert.equal(ev.parent_run_id, span.id);
    assert.equal(new Date(ev.end_time).getTime(), new Date(ev.start_time).getTime(), "an event takes no time");

    const feedback = await db.query<Record<string, any>>(
      sql`SELECT key, score, value, comment, run_id, trace_id FROM feedback WHERE workspace_id = ${ws} AND trace_id = ${root.id} ORDER BY key`,
    );
    assert.deepEqual(
      feedback.map((f) => [f.key, f.score === null ? null : Number(f.score), f.value, f.comment, f.run_id]),
      [
        ["quality", 0.9, null, "good", root.id],
        ["resolved", 1, null, null, root.id],
        ["tone", null, "friendly", null, gen.id],
      ],
    );
  });

  test("the same events give the same runs whatever order they arrive in, across requests", async () => {
    const events = (n: string) => {
      const traceId = `order-trace-${n}`;
      const spanId = `order-span-${n}`;
      const genId = `00000000-0000-4000-8000-00000000000${n}`;
      return {
        traceId,
        spanId,
        genId,
        list: [
          event("trace-create", { id: traceId, timestamp: "2026-11-20T11:00:00.000Z", name: "t", userId: "u" }),
          event("span-create", { id: spanId, traceId, name: "s", startTime: "2026-11-20T11:00:01.000Z", input: { a: 1 } }),
          event("span-update", { id: spanId, traceId, endTime: "2026-11-20T11:00:03.000Z", output: { b: 2 }, metadata: { late: true } }),
          event("generation-create", {
            id: genId,
            traceId,
            parentObservationId: spanId,
            name: "g",
            startTime: "2026-11-20T11:00:01.500Z",
            model: "gpt-4o",
          }),
          event("generation-update", {
            id: genId,
            traceId,
            endTime: "2026-11-20T11:00:02.000Z",
            usage: { input: 10, output: 5, unit: "TOKENS" },
            level: "ERROR",
            statusMessage: "rate limited",
          }),
          event("trace-create", { id: traceId, timestamp: "2026-11-20T11:00:04.000Z", output: { done: true } }, "2026-11-20T11:00:04.000Z"),
        ],
      };
    };
    const inOrder = events("1");
    for (const e of inOrder.list) await ingestLangfuseBatch(db, ws, "pk-order", [e]);
    const reversed = events("2");
    for (const e of [...reversed.list].reverse()) await ingestLangfuseBatch(db, ws, "pk-order", [e]);

    for (const key of ["traceId", "spanId", "genId"] as const) {
      const a = await run(db, inOrder[key]);
      const b = await run(db, reversed[key]);
      const strip = (r: Record<string, any>) => {
        const v = visible(r) as Record<string, any>;
        return { ...v, extra: v.extra.replaceAll(/order-(trace|span)-\d|00000000-0000-4000-8000-00000000000\d/g, "ID") };
      };
      assert.deepEqual(strip(b), strip(a), key);
    }
    const gen = await run(db, reversed.genId);
    assert.equal(gen.error, "rate limited");
    assert.equal(gen.status, "error");
    assert.equal(gen.prompt_tokens, 10);
    assert.equal(gen.id, reversed.genId, "a UUID id is the run id");
    const root = await run(db, reversed.traceId);
    assert.equal(new Date(root.start_time).toISOString(), "2026-11-20T11:00:00.000Z", "a trace update never moves its start");
    assert.deepEqual(root.outputs, { done: true });
    assert.equal((await run(db, reversed.spanId)).placement_pending, false);
  });

  test("events that cannot be stored are errors of their own; the rest of the batch is stored", async () => {
    const good = event("trace-create", { id: "partial-ok", name: "fine" });
    const unknown = event("mystery-create", { id: "m" });
    const noId = event("span-update", { traceId: "partial-ok", output: 1 });
    const orphanScore = event("score-create", { sessionId: "s-1", name: "x", value: 1 });
    const badBody = event("span-create", { id: "bad", traceId: "partial-ok", startTime: { not: "a time" } });
    const longName = event("span-create", { id: "long", traceId: "partial-ok", name: "n".repeat(600) });
    const answer = await ingestLangfuseBatch(db, ws, "pk-errors", [good, unknown, noId, orphanScore, badBody, longName, "junk"]);
    assert.deepEqual(answer.successes, [{ id: good.id, status: 201 }]);
    const errors = new Map(answer.errors.map((e) => [e.id, e]));
    assert.equal(errors.size, 6);
    for (const e of answer.errors) assert.equal(e.status, 400);
    assert.match(errors.get(unknown.id)!.message, /Unknown event type "mystery-create"/);
    assert.match(errors.get(noId.id)!.message, /body\.id/);
    assert.match(errors.get(orphanScore.id)!.message, /traceId or an observationId/);
    assert.match(errors.get(badBody.id)!.message, /startTime/);
    assert.match(errors.get(longName.id)!.message, /name/);
    assert.ok(errors.has("batch[6]"));
    assert.equal((await run(db, "partial-ok")).name, "fine");
  });

  test("a trace sent with no time at all is stored, starting when it arrived", async () => {
    const before = Date.now();
    const answer = await ingestLangfuseBatch(db, ws, "pk-untimed", [
      { id: "untimed", type: "trace-create", body: { id: "untimed-trace", name: "u" } },
    ]);
    assert.deepEqual(answer.successes, [{ id: "untimed", status: 201 }]);
    assert.ok(new Date((await run(db, "untimed-trace")).start_time).getTime() >= before - 1000);
  });

  test("within one batch an update listed before its create merges the same way", async () => {
    const create = event("span-create", { id: "batch-order-span", name: "s", startTime: "2026-11-20T12:00:00.000Z", input: { a: 1 } });
    const update = event("span-update", { id: "batch-order-span", endTime: "2026-11-20T12:00:01.000Z", output: { b: 2 } });
    await ingestLangfuseBatch(db, ws, "pk-order", [update, create]);
    const span = await run(db, "batch-order-span");
    assert.equal(span.name, "s");
    assert.deepEqual([span.inputs, span.outputs], [{ a: 1 }, { b: 2 }]);
    assert.equal(new Date(span.end_time).getTime() - new Date(span.start_time).getTime(), 1000);
  });
});
