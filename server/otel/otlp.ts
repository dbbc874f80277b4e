/**
 * The decoded form of an ExportTraceServiceRequest, the same whichever encoding it came in:
 * ids as lowercase hex, nanosecond times as bigint, attribute lists as plain objects.
 */

/** An attribute value: AnyValue with kvlists as objects, arrays as arrays and bytes as base64. */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

export interface OtlpEvent {
  name: string;
  timeUnixNano: bigint | null;
  attributes: Attributes;
}

export interface OtlpSpan {
  /** Hex as sent; validity (length, all-zero) is judged when mapping, so one bad span is rejected alone. */
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: bigint | null;
  endTimeUnixNano: bigint | null;
  attributes: Attributes;
  events: OtlpEvent[];
  status: { code: number; message: string };
  resource: Attributes;
  scope: { name: string; version: string };
}

export interface ExportRequest {
  spans: OtlpSpan[];
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

export const STATUS_ERROR = 2;

/** Thrown for a body that is not an OTLP traces request; the route answers 400. */
export class OtlpDecodeError extends Error {}

/** Thrown for a Content-Type that is neither protobuf nor JSON; the route answers 415. */
export class OtlpContentTypeError extends Error {}
