import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { exportTraces } from "./export";
import { uuidFromOtelSpanId } from "./ids";

/**
 * Issue 35: attribute values nested past what a run may hold answer 4xx or a partialSuccess naming
 * them, never a 500 from a stack overflow; a langsmith.* attribute whose JSON cannot be kept stays a string.
 */
const T0 = 1_763_884_800_000_000_000n;
const TRACE = "5bf92f3577b34da6a3ce929d0e0e4736";
let next = 0;
const newSpanId = () => (0x6b6b000000000000n + BigInt(++next)).toString(16);

/** An AnyValue that is `levels` kvlistValues, one inside the other, as JSON text (JSON.stringify would overflow). */
function nestedKvlist(levels: number): string {
  return '{"kvlistValue": {"values": [{"key": "k", "value": '.repeat(levels) + '{"stringValue": "bottom"}' + "}]}}".repeat(levels);
}

/** A span as OTLP/JSON text, its attributes given as `[key, AnyValue as JSON text]`. */
function span(spanId: string, attributes: [string, string][]): string {
  const kvs = attributes.map(([key, value]) => `{"key": ${JSON.stringify(key)}, "value": ${value}}`).join(", ");
  const times = `"startTimeUnixNano": "${T0}", "endTimeUnixNano": "${T0 + 1_000_000n}"`;
  return `{"traceId": "${TRACE}", "spanId": "${spanId}", "name": "deep", ${times}, "attributes": [${kvs}]}`;
}

const jsonBody = (spans: string[]) => Buffer.from(`{"resourceSpans": [{"scopeSpans": [{"spans": [${spans.join(", ")}]}]}]}`);
const text = (value: string) => JSON.stringify({ stringValue: value });

async function stored(db: Sql, spanId: string) {
  const [row] = await db.query<{ extra: { metadata: Record<string, unknown> } }>(
    sql`SELECT extra FROM runs WHERE id = ${uuidFromOtelSpanId(spanId)}`,
  );
  return row;
}

withTestDatabases("otel: deep attribute values", (open) => {
  let db: Sql;
  let ws: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "otel depth")).id;
  });

  test("JSON: a kvlistValue nested 10,000 deep is a 400 naming the depth", async () => {
    const response = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([span(newSpanId(), [["deep", nestedKvlist(10_000)]])]),
    });
    assert.equal(response.status, 400);
    assert.match((await response.json()).detail, /nests deeper than 816 levels.*at most 200 levels/);
  });

  test("a kvlistValue deeper than a run may hold rejects its span in partialSuccess; the rest is stored", async () => {
    const [bad, good] = [newSpanId(), newSpanId()];
    const response = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([span(bad, [["deep", nestedKvlist(201)]]), span(good, [["fine", nestedKvlist(3)]])]),
    });
    assert.equal(response.status, 200);
    const { partialSuccess } = await response.json();
    assert.equal(partialSuccess.rejectedSpans, "1");
    assert.match(partialSuccess.errorMessage, new RegExp(`span ${bad}: attribute "deep" nests deeper than 200 levels`));
    assert.equal(await stored(db, bad), undefined);
    assert.deepEqual((await stored(db, good))!.extra.metadata.fine, { k: { k: { k: "bottom" } } });
  });

  test("a langsmith.* attribute holding JSON nested 10,000 deep, or broken JSON, is kept as the string sent", async () => {
    const spanId = newSpanId();
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const response = await exportTraces(db, ws, {
      contentType: "application/json",
      bytes: jsonBody([
        span(spanId, [
          ["langsmith.metadata.deep", text(deep)],
          ["langsmith.metadata.broken", text('{"a": [1, 2')],
          ["langsmith.metadata.fine", text('{"a": [1, 2]}')],
        ]),
      ]),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {});
    const { metadata } = (await stored(db, spanId))!.extra;
    assert.equal(metadata.deep, deep);
    assert.equal(metadata.broken, '{"a": [1, 2');
    assert.deepEqual(metadata.fine, { a: [1, 2] });
  });
});
