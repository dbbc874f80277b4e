import path from "node:path";
import protobuf from "protobufjs";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { uuidFromOtelSpanId } from "./ids";

// OTLP export bodies for the export tests, and the run a span became.

/** Bodies are encoded the way an exporter encodes them, with an independent protobufjs root. */
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(process.cwd(), "server/otel/proto", target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto");
const Request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");

const T0 = 1_763_884_800_000_000_000n;
let next = 0;
export const newSpanId = () => (0x5a5a000000000000n + BigInt(++next)).toString(16);
export const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

export interface SpanSpec {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startOffsetMs: number;
  durationMs: number;
  attributes?: Record<string, string | number>;
}

const kv = (attributes: Record<string, string | number> = {}) =>
  Object.entries(attributes).map(([key, value]) => ({
    key,
    value: typeof value === "number" ? (Number.isInteger(value) ? { intValue: value } : { doubleValue: value }) : { stringValue: value },
  }));

export function protobufBody(spans: SpanSpec[]): Buffer {
  return Buffer.from(
    Request.encode(
      Request.fromObject({
        resourceSpans: [
          {
            resource: { attributes: kv({ "service.name": "otel-export-test" }) },
            scopeSpans: [
              {
                scope: { name: "test" },
                spans: spans.map((s) => ({
                  traceId: Buffer.from(TRACE, "hex"),
                  spanId: Buffer.from(s.spanId, "hex"),
                  parentSpanId: s.parentSpanId ? Buffer.from(s.parentSpanId, "hex") : undefined,
                  name: s.name,
                  kind: 1,
                  startTimeUnixNano: String(T0 + BigInt(s.startOffsetMs) * 1_000_000n),
                  endTimeUnixNano: String(T0 + BigInt(s.startOffsetMs + s.durationMs) * 1_000_000n),
                  attributes: kv(s.attributes),
                })),
              },
            ],
          },
        ],
      }),
    ).finish(),
  );
}

export function jsonBody(spans: SpanSpec[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: spans.map((s) => ({
                traceId: TRACE,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? "",
                name: s.name,
                startTimeUnixNano: String(T0 + BigInt(s.startOffsetMs) * 1_000_000n),
                endTimeUnixNano: String(T0 + BigInt(s.startOffsetMs + s.durationMs) * 1_000_000n),
                attributes: kv(s.attributes),
              })),
            },
          ],
        },
      ],
    }),
  );
}

// The tests read a row's columns by name, whatever their types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StoredRow = Record<string, any>;

/** The run a span became, with its project's name. */
export async function row(db: Sql, spanId: string): Promise<StoredRow> {
  const [r] = await db.query<StoredRow>(
    sql`SELECT r.*, p.name AS project FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.id = ${uuidFromOtelSpanId(spanId)}`,
  );
  return r;
}
