import type { Attributes, AttrValue, ExportRequest, OtlpEvent, OtlpSpan } from "./otlp";

/**
 * The ExportTraceServiceRequest shape both decoders produce (protobufjs `toObject` output and
 * camelCased OTLP/JSON): ids are bytes (protobuf) or hex/base64 strings (JSON), 64-bit numbers are
 * decimal strings or numbers.
 */
export interface RawAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: string | number | null;
  doubleValue?: number | string | null;
  arrayValue?: { values?: RawAnyValue[] | null } | null;
  kvlistValue?: { values?: RawKeyValue[] | null } | null;
  bytesValue?: string | Uint8Array | null;
}
export interface RawKeyValue {
  key: string;
  value?: RawAnyValue | null;
}
type RawId = string | Uint8Array | { type: "Buffer"; data: number[] } | null | undefined;
type RawNanos = string | number | null | undefined;
export interface RawSpan {
  traceId?: RawId;
  spanId?: RawId;
  parentSpanId?: RawId;
  name?: string | null;
  kind?: number | string | null;
  startTimeUnixNano?: RawNanos;
  endTimeUnixNano?: RawNanos;
  attributes?: RawKeyValue[] | null;
  events?: { timeUnixNano?: RawNanos; name?: string | null; attributes?: RawKeyValue[] | null }[] | null;
  status?: { code?: number | string | null; message?: string | null } | null;
}
export interface RawRequest {
  resourceSpans?:
    | {
        resource?: { attributes?: RawKeyValue[] | null } | null;
        scopeSpans?: { scope?: { name?: string | null; version?: string | null } | null; spans?: RawSpan[] | null }[] | null;
      }[]
    | null;
}

const HEX = /^[0-9a-fA-F]*$/;

/** Bytes → hex; a JSON id is hex, but some clients send base64 (24/12 characters) or a serialized Buffer. */
export function idToHex(id: RawId): string {
  if (!id) return "";
  if (id instanceof Uint8Array) return Buffer.from(id).toString("hex");
  if (typeof id === "object") return Array.isArray(id.data) ? Buffer.from(id.data).toString("hex") : "";
  if (HEX.test(id)) return id.toLowerCase();
  if (id.length === 24 || id.length === 12) return Buffer.from(id, "base64").toString("hex");
  return id;
}

/** Nanoseconds as bigint; 0 or unparsable means "not given". */
export function nanos(value: RawNanos): bigint | null {
  if (value === null || value === undefined || value === "") return null;
  try {
    const n = typeof value === "number" ? BigInt(Math.round(value)) : BigInt(value.trim());
    return n > 0n ? n : null;
  } catch {
    return null;
  }
}

/** Int64 stays exact: a number when it is a safe integer, its decimal string otherwise. */
function int64(value: string | number): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : String(value);
}

function anyValue(v: RawAnyValue | null | undefined): AttrValue {
  if (!v) return null;
  if (v.stringValue !== undefined && v.stringValue !== null) return v.stringValue;
  if (v.boolValue !== undefined && v.boolValue !== null) return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return int64(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValue);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  if (v.bytesValue !== undefined && v.bytesValue !== null) {
    return typeof v.bytesValue === "string" ? v.bytesValue : Buffer.from(v.bytesValue).toString("base64");
  }
  return null;
}

export function attributes(list: RawKeyValue[] | null | undefined): Attributes {
  const out: Attributes = {};
  for (const kv of list ?? []) if (kv && typeof kv.key === "string") out[kv.key] = anyValue(kv.value);
  return out;
}

const STATUS_NAMES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };
const KIND_NAMES: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};

/** Enums MUST be integers in OTLP/JSON; names are tolerated. */
function enumValue(value: number | string | null | undefined, names: Record<string, number>): number {
  if (typeof value === "number") return value;
  if (typeof value === "string") return names[value.toUpperCase()] ?? (Number(value) || 0);
  return 0;
}

function event(e: NonNullable<RawSpan["events"]>[number]): OtlpEvent {
  return { name: e.name ?? "", timeUnixNano: nanos(e.timeUnixNano), attributes: attributes(e.attributes) };
}

export function normalizeRequest(raw: RawRequest): ExportRequest {
  const spans: OtlpSpan[] = [];
  for (const rs of raw.resourceSpans ?? []) {
    const resource = attributes(rs?.resource?.attributes);
    for (const ss of rs?.scopeSpans ?? []) {
      const scope = { name: ss?.scope?.name ?? "", version: ss?.scope?.version ?? "" };
      for (const s of ss?.spans ?? []) {
        if (!s) continue;
        spans.push({
          traceId: idToHex(s.traceId),
          spanId: idToHex(s.spanId),
          parentSpanId: idToHex(s.parentSpanId),
          name: s.name ?? "",
          kind: enumValue(s.kind, KIND_NAMES),
          startTimeUnixNano: nanos(s.startTimeUnixNano),
          endTimeUnixNano: nanos(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: (s.events ?? []).filter(Boolean).map(event),
          status: { code: enumValue(s.status?.code, STATUS_NAMES), message: s.status?.message ?? "" },
          resource,
          scope,
        });
      }
    }
  }
  return { spans };
}
