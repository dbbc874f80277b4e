import { UUID } from "../core/uuid";
/**
 * OTel ids → run UUIDs, derived exactly as the langsmith SDK does
 * (`langsmith-sdk: js/src/experimental/otel/utils.ts`), so a run the SDK created under an OTel span
 * and the span itself land on the same id.
 */

const HEX = /^[0-9a-f]+$/;

/** A lowercase hex id of the given byte length, or null for a missing, malformed or all-zero id. */
export function validHexId(hex: string | undefined, bytes: 8 | 16): string | null {
  if (!hex) return null;
  const lower = hex.toLowerCase();
  if (lower.length !== bytes * 2 || !HEX.test(lower) || /^0+$/.test(lower)) return null;
  return lower;
}

/** Trace id (32 hex characters) → `8-4-4-4-12`. */
export function uuidFromOtelTraceId(traceId: string): string {
  const h = traceId.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Span id (16 hex characters) → `00000000-0000-0000-xxxx-xxxxxxxxxxxx`. */
export function uuidFromOtelSpanId(spanId: string): string {
  const h = spanId.toLowerCase().padStart(16, "0");
  return `00000000-0000-0000-${h.slice(0, 4)}-${h.slice(4, 16)}`;
}

/** A UUID given in an attribute (dashed or 32 hex characters), lowercased; null otherwise. */
export function asUuid(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim().toLowerCase();
  if (UUID.test(v)) return v;
  if (/^[0-9a-f]{32}$/.test(v)) return uuidFromOtelTraceId(v);
  return null;
}
