import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import protobuf from "protobufjs";
import { decodeExportRequest, encodeErrorStatus, encodeExportResponse } from "./decode";
import { OtlpContentTypeError, OtlpDecodeError } from "./otlp";

/** The test encodes with its own protobufjs root, as an exporter would. */
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(process.cwd(), "server/otel/proto", target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto");
const Request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const Response = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");

const TRACE = "5b8efff798038103d269b633813fc60c";
const SPAN = "eee19b7ec3c1b174";
const PARENT = "eee19b7ec3c1b173";

function protobufBody(): Buffer {
  const message = Request.fromObject({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeSpans: [
          {
            scope: { name: "my.tracer", version: "2.0" },
            spans: [
              {
                traceId: Buffer.from(TRACE, "hex"),
                spanId: Buffer.from(SPAN, "hex"),
                parentSpanId: Buffer.from(PARENT, "hex"),
                name: "chat gpt-4o",
                kind: 3,
                startTimeUnixNano: "1763884800123456789",
                endTimeUnixNano: "1763884801987654321",
                attributes: [
                  { key: "gen_ai.usage.input_tokens", value: { intValue: 42 } },
                  { key: "big", value: { intValue: "9007199254740993" } },
                  { key: "ratio", value: { doubleValue: 0.5 } },
                  { key: "ok", value: { boolValue: true } },
                  { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }, { intValue: 2 }] } } },
                  { key: "obj", value: { kvlistValue: { values: [{ key: "k", value: { stringValue: "v" } }] } } },
                  { key: "raw", value: { bytesValue: Buffer.from("hi") } },
                ],
                events: [
                  {
                    timeUnixNano: "1763884800500000000",
                    name: "exception",
                    attributes: [{ key: "exception.message", value: { stringValue: "boom" } }],
                  },
                ],
                status: { code: 2, message: "failed" },
              },
            ],
          },
        ],
      },
    ],
  });
  return Buffer.from(Request.encode(message).finish());
}

test("protobuf: ids as hex, nanosecond times exact, every AnyValue kind, resource and scope", () => {
  const { spans } = decodeExportRequest(protobufBody(), "application/x-protobuf");
  assert.equal(spans.length, 1);
  const s = spans[0];
  assert.equal(s.traceId, TRACE);
  assert.equal(s.spanId, SPAN);
  assert.equal(s.parentSpanId, PARENT);
  assert.equal(s.kind, 3);
  assert.equal(s.startTimeUnixNano, 1763884800123456789n);
  assert.equal(s.endTimeUnixNano, 1763884801987654321n);
  assert.deepEqual(s.attributes, {
    "gen_ai.usage.input_tokens": 42,
    big: "9007199254740993",
    ratio: 0.5,
    ok: true,
    list: ["a", 2],
    obj: { k: "v" },
    raw: Buffer.from("hi").toString("base64"),
  });
  assert.deepEqual(s.events, [{ name: "exception", timeUnixNano: 1763884800500000000n, attributes: { "exception.message": "boom" } }]);
  assert.deepEqual(s.status, { code: 2, message: "failed" });
  assert.deepEqual(s.resource, { "service.name": "checkout" });
  assert.deepEqual(s.scope, { name: "my.tracer", version: "2.0" });
});

test("OTLP/JSON: hex ids in any case, string or number times, camelCase or snake_case keys, enum names", () => {
  const camel = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeSpans: [
          {
            scope: { name: "my.tracer" },
            spans: [
              {
                traceId: TRACE.toUpperCase(),
                spanId: SPAN,
                parentSpanId: "",
                name: "a",
                kind: 2,
                startTimeUnixNano: "1763884800123456789",
                endTimeUnixNano: 1763884801000000000,
                attributes: [
                  { key: "n", value: { intValue: "7" } },
                  { key: "d", value: { doubleValue: 1.5 } },
                ],
                status: { code: "STATUS_CODE_ERROR", message: "x" },
              },
            ],
          },
        ],
      },
    ],
  };
  const snake = {
    resource_spans: [
      {
        scope_spans: [
          {
            spans: [
              {
                trace_id: TRACE,
                span_id: SPAN,
                parent_span_id: PARENT,
                name: "b",
                start_time_unix_nano: "1763884800123456789",
                attributes: [{ key: "gen_ai.request.model", value: { string_value: "gpt-4o" } }],
              },
            ],
          },
        ],
      },
    ],
  };
  const a = decodeExportRequest(Buffer.from(JSON.stringify(camel)), "application/json; charset=utf-8").spans[0];
  assert.equal(a.traceId, TRACE);
  assert.equal(a.parentSpanId, "");
  assert.equal(a.startTimeUnixNano, 1763884800123456789n);
  assert.equal(a.endTimeUnixNano, 1763884801000000000n);
  assert.deepEqual(a.attributes, { n: 7, d: 1.5 });
  assert.equal(a.status.code, 2);
  assert.deepEqual(a.resource, { "service.name": "checkout" });
  const b = decodeExportRequest(Buffer.from(JSON.stringify(snake)), "application/json").spans[0];
  assert.equal(b.parentSpanId, PARENT);
  assert.deepEqual(b.attributes, { "gen_ai.request.model": "gpt-4o" });
});

test("OTLP/JSON ids sent as base64 are tolerated", () => {
  const body = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: Buffer.from(TRACE, "hex").toString("base64"),
                spanId: Buffer.from(SPAN, "hex").toString("base64"),
                startTimeUnixNano: "1",
              },
            ],
          },
        ],
      },
    ],
  };
  const s = decodeExportRequest(Buffer.from(JSON.stringify(body)), "application/json").spans[0];
  assert.equal(s.traceId, TRACE);
  assert.equal(s.spanId, SPAN);
});

test("an empty request is fine in both encodings", () => {
  assert.deepEqual(decodeExportRequest(Buffer.alloc(0), "application/x-protobuf"), { spans: [] });
  assert.deepEqual(decodeExportRequest(Buffer.from("{}"), "application/json"), { spans: [] });
});

test("undecodable bodies, other signals and attribute maps are decode errors; other content types are refused", () => {
  const bad = (body: Buffer | string, type: string) => () => decodeExportRequest(Buffer.from(body), type);
  assert.throws(bad("{not json", "application/json"), OtlpDecodeError);
  assert.throws(bad("[]", "application/json"), OtlpDecodeError);
  assert.throws(bad(JSON.stringify({ resourceLogs: [{ scopeLogs: [] }] }), "application/json"), /logs payload/);
  assert.throws(bad(JSON.stringify({ resourceMetrics: [] }), "application/json"), /metrics payload/);
  assert.throws(
    bad(
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, attributes: { "gen_ai.system": "openai" } }] }] }],
      }),
      "application/json",
    ),
    /attributes must be a list/,
  );
  assert.throws(bad(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), "application/x-protobuf"), OtlpDecodeError);
  assert.throws(bad("hello", "text/plain"), OtlpContentTypeError);
});

test("protobuf logs and metrics payloads sent to the traces path are recognised, not stored as spans", () => {
  const other = protobuf.parse(`
    syntax = "proto3";
    message AnyValue { string string_value = 1; }
    message LogRecord { fixed64 time_unix_nano = 1; string severity_text = 3; AnyValue body = 5; bytes trace_id = 9; bytes span_id = 10; }
    message ScopeLogs { repeated LogRecord log_records = 2; }
    message ResourceLogs { repeated ScopeLogs scope_logs = 2; }
    message LogsData { repeated ResourceLogs resource_logs = 1; }
    message Metric { string name = 1; string description = 2; string unit = 3; }
    message ScopeMetrics { repeated Metric metrics = 2; }
    message ResourceMetrics { repeated ScopeMetrics scope_metrics = 2; }
    message MetricsData { repeated ResourceMetrics resource_metrics = 1; }
  `).root;
  const Logs = other.lookupType("LogsData");
  const logs = Logs.encode(
    Logs.fromObject({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: "1763884800123456789",
                  severityText: "INFO",
                  body: { stringValue: "hello" },
                  traceId: Buffer.from(TRACE, "hex"),
                  spanId: Buffer.from(SPAN, "hex"),
                },
              ],
            },
          ],
        },
      ],
    }),
  ).finish();
  assert.throws(() => decodeExportRequest(Buffer.from(logs), "application/x-protobuf"), OtlpDecodeError);
  const Metrics = other.lookupType("MetricsData");
  const metrics = Metrics.encode(
    Metrics.fromObject({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: "http.server.duration", description: "d", unit: "ms" }] }] }],
    }),
  ).finish();
  assert.throws(() => decodeExportRequest(Buffer.from(metrics), "application/x-protobuf"), /does not look like a traces payload/);
});

test("responses answer in the request's encoding, with partial success only when spans were rejected", () => {
  const empty = encodeExportResponse(null, "application/x-protobuf");
  assert.equal(empty.contentType, "application/x-protobuf");
  assert.equal(empty.body.length, 0);
  const partial = encodeExportResponse({ rejectedSpans: 3, errorMessage: "3 spans rejected" }, "application/x-protobuf");
  assert.deepEqual(Response.toObject(Response.decode(partial.body), { longs: String }), {
    partialSuccess: { rejectedSpans: "3", errorMessage: "3 spans rejected" },
  });
  assert.deepEqual(JSON.parse(Buffer.from(encodeExportResponse(null, "application/json").body).toString()), {});
  assert.deepEqual(
    JSON.parse(Buffer.from(encodeExportResponse({ rejectedSpans: 1, errorMessage: "m" }, "application/json").body).toString()),
    { partialSuccess: { rejectedSpans: "1", errorMessage: "m" } },
  );
  const status = protobuf.parse('syntax = "proto3"; message Status { int32 code = 1; string message = 2; }').root.lookupType("Status");
  assert.deepEqual(status.toObject(status.decode(encodeErrorStatus(3, "bad body", "protobuf").body)), { code: 3, message: "bad body" });
});
