import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { compactRollups } from "../runs/rollups/compact";
import { exportTraces } from "./export";
import { uuidFromOtelSpanId } from "./ids";

const T0 = 1_763_884_800_000_000_000n;
let next = 0;
const newSpanId = () => (0x7c7c000000000000n + BigInt(++next)).toString(16);

/** An OTLP/JSON export of root spans, one per entry: its name and string attributes. */
function body(spans: { spanId: string; name: string; attributes: Record<string, string> }[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: spans.map((s) => ({
                traceId: randomUUID().replaceAll("-", ""),
                spanId: s.spanId,
                name: s.name,
                startTimeUnixNano: String(T0),
                endTimeUnixNano: String(T0 + 1_000_000n),
                attributes: Object.entries(s.attributes).map(([key, value]) => ({ key, value: { stringValue: value } })),
              })),
            },
          ],
        },
      ],
    }),
  );
}

withTestDatabases("otel export within ingest's limits", (open) => {
  test("a span past a limit is refused alone in partialSuccess; a derived model is cut; an unknown kind is a chain", async () => {
    const db = (await open()).sql;
    const ws = randomUUID();
    const [longName, longSpanName, longThread, agent, model, plain] = Array.from({ length: 6 }, newSpanId);
    const response = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: body([
        { spanId: longName, name: "ok", attributes: { "langsmith.trace.name": "n".repeat(3000) } },
        { spanId: longSpanName, name: "s".repeat(8000), attributes: {} },
        { spanId: longThread, name: "thread", attributes: { "langsmith.metadata.thread_id": "t".repeat(8000) } },
        { spanId: agent, name: "agent", attributes: { "langsmith.span.kind": "agent" } },
        {
          spanId: model,
          name: "chat",
          attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m".repeat(8000), "gen_ai.provider.name": "openai" },
        },
        { spanId: plain, name: "plain", attributes: {} },
      ]),
    });
    assert.equal(response.status, 200);
    const { partialSuccess } = await response.json();
    assert.equal(partialSuccess.rejectedSpans, "3", partialSuccess.errorMessage);
    assert.match(partialSuccess.errorMessage, /name: a run name is at most 500 characters; this one has 3,000/);
    assert.match(partialSuccess.errorMessage, /this one has 8,000/);
    assert.match(partialSuccess.errorMessage, /thread id \(metadata.thread_id\) is at most 1,000 characters/);
    const rows = await db.query<{ id: string; run_type: string; model: string | null }>(
      sql`SELECT id, run_type, model FROM runs WHERE workspace_id = ${ws}`,
    );
    const stored = new Map(rows.map((r) => [r.id, r]));
    for (const refused of [longName, longSpanName, longThread]) assert.ok(!stored.has(uuidFromOtelSpanId(refused)));
    assert.equal(stored.get(uuidFromOtelSpanId(agent))?.run_type, "chain");
    assert.equal(stored.get(uuidFromOtelSpanId(model))?.model, "m".repeat(200));
    assert.ok(stored.has(uuidFromOtelSpanId(plain)));
    const [logged] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ingest_errors WHERE workspace_id = ${ws}`);
    assert.equal(logged.n, 3, "the refusals are in the workspace's ingest-error log");
    await compactRollups(db);
    const [left] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM run_buckets WHERE NOT merged`);
    assert.equal(left.n, 0, "everything stored folds");
  });
});
