// The bench's runs as an OTLP/HTTP traces export: one span per run, with the langsmith.* attributes
// the LangSmith OTel exporter writes and gen_ai.* semantic conventions for LLM calls (messages,
// model, usage, time to first chunk). Encoded as protobuf (the vendored protos) or as OTLP/JSON.
import path from "node:path";
import protobuf from "protobufjs";
import { parseInstant } from "../server/core/time";

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status: { code: number };
}

const hex = (uuid: string) => uuid.replace(/-/g, "");
const nanos = (t: unknown) => (parseInstant(t as string)! * 1000n).toString();
const text = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): KeyValue => ({ key, value: { intValue: String(value) } });

type Message = { role: string; content: string };
const parts = (messages: Message[]) => messages.map((m) => ({ role: m.role, parts: [{ type: "text", content: m.content }] }));

function spanOf(run: Record<string, unknown>): Span {
  const inputs = run.inputs as Record<string, unknown>;
  const outputs = run.outputs as Record<string, unknown>;
  const metadata = (run.extra as { metadata?: Record<string, unknown> })?.metadata ?? {};
  const attributes: KeyValue[] = [
    text("langsmith.span.kind", run.run_type as string),
    text("langsmith.trace.name", run.name as string),
    text("langsmith.trace.session_name", run.session_name as string),
  ];
  if (Array.isArray(run.tags) && run.tags.length) attributes.push(text("langsmith.span.tags", run.tags.join(",")));
  for (const [key, value] of Object.entries(metadata)) {
    attributes.push(text(`langsmith.metadata.${key}`, typeof value === "string" ? value : JSON.stringify(value)));
  }
  if (run.run_type === "llm") {
    const usage = outputs.usage as { prompt_tokens: number; completion_tokens: number };
    const choices = outputs.choices as { message: Message }[];
    attributes.push(
      text("gen_ai.operation.name", "chat"),
      text("gen_ai.provider.name", "openai"),
      text("gen_ai.request.model", inputs.model as string),
      int("gen_ai.usage.input_tokens", usage.prompt_tokens),
      int("gen_ai.usage.output_tokens", usage.completion_tokens),
      text("gen_ai.input.messages", JSON.stringify(parts(inputs.messages as Message[]))),
      text("gen_ai.output.messages", JSON.stringify(parts(choices.map((c) => c.message)))),
      { key: "gen_ai.response.time_to_first_chunk", value: { doubleValue: 0.15 } },
    );
  } else {
    // What the LangSmith SDK writes for a run that is not a model call: the whole inputs and outputs.
    attributes.push(text("gen_ai.prompt", JSON.stringify(inputs)), text("gen_ai.completion", JSON.stringify(outputs)));
  }
  return {
    traceId: hex(run.trace_id as string),
    spanId: hex(run.id as string).slice(16),
    ...(run.parent_run_id ? { parentSpanId: hex(run.parent_run_id as string).slice(16) } : {}),
    name: run.name as string,
    kind: run.run_type === "llm" ? 3 : 1,
    startTimeUnixNano: nanos(run.start_time),
    endTimeUnixNano: nanos(run.end_time),
    attributes,
    status: { code: 0 },
  };
}

function request(runs: Record<string, unknown>[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [text("service.name", "bench-agent"), text("telemetry.sdk.language", "nodejs")] },
        scopeSpans: [{ scope: { name: "langsmith", version: "0.12.0" }, spans: runs.map(spanOf) }],
      },
    ],
  };
}

/** OTLP/JSON: hex ids, decimal-string nanoseconds. */
export function otlpJsonOf(runs: Record<string, unknown>[]): string {
  return JSON.stringify(request(runs));
}

let requestType: protobuf.Type | undefined;

/** OTLP protobuf, encoded with the same vendored protos the server decodes with. */
export function otlpProtobufOf(runs: Record<string, unknown>[]): Uint8Array {
  if (!requestType) {
    const dir = path.join(process.cwd(), "server", "otel", "proto");
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => path.join(dir, target);
    root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
    requestType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
  }
  const body = request(runs);
  for (const s of body.resourceSpans[0].scopeSpans[0].spans) {
    const bytes = s as unknown as Record<string, unknown>;
    bytes.traceId = Buffer.from(s.traceId, "hex");
    bytes.spanId = Buffer.from(s.spanId, "hex");
    if (s.parentSpanId) bytes.parentSpanId = Buffer.from(s.parentSpanId, "hex");
  }
  return requestType.encode(requestType.fromObject(body)).finish();
}
