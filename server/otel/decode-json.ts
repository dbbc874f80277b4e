import { z } from "zod";
import { jsonDepth, MAX_DEPTH } from "../core/json-depth";
import { normalizeRequest, type RawAnyValue, type RawKeyValue, type RawRequest } from "./normalize";
import { OtlpDecodeError, type ExportRequest } from "./otlp";

/**
 * snake_case → lowerCamelCase, in place: OTLP/JSON keys MUST be camelCase, but hand-written payloads
 * use both. The parsed body is ours, so only keys holding an underscore are renamed (a 10,000-span
 * body is not copied object by object).
 */
function camelize(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) camelize(item);
  } else if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const child = object[key];
      camelize(child);
      if (!key.includes("_")) continue;
      const camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      if (camel === key) continue;
      delete object[key];
      object[camel] = child;
    }
  }
  return value;
}

const int64 = z.union([z.string(), z.number()]).nullish();
const id = z.union([z.string(), z.looseObject({ type: z.literal("Buffer"), data: z.array(z.number()) })]).nullish();
const enumLike = z.union([z.number(), z.string()]).nullish();

const anyValue: z.ZodType<RawAnyValue> = z.lazy(() =>
  z.looseObject({
    stringValue: z.string().nullish(),
    boolValue: z.boolean().nullish(),
    intValue: int64,
    doubleValue: z.union([z.number(), z.string()]).nullish(),
    arrayValue: z.looseObject({ values: z.array(anyValue).nullish() }).nullish(),
    kvlistValue: z.looseObject({ values: z.array(keyValue).nullish() }).nullish(),
    bytesValue: z.string().nullish(),
  }),
);
const keyValue: z.ZodType<RawKeyValue> = z.lazy(() => z.looseObject({ key: z.string(), value: anyValue.nullish() }));
/** A `{key: value}` map instead of a KeyValue list is not OTLP; refusing it beats guessing. */
const attributeList = z.array(keyValue, { error: "attributes must be a list of {key, value}" }).nullish();

const span = z.looseObject({
  traceId: id,
  spanId: id,
  parentSpanId: id,
  name: z.string().nullish(),
  kind: enumLike,
  startTimeUnixNano: int64,
  endTimeUnixNano: int64,
  attributes: attributeList,
  events: z.array(z.looseObject({ timeUnixNano: int64, name: z.string().nullish(), attributes: attributeList })).nullish(),
  status: z.looseObject({ code: enumLike, message: z.string().nullish() }).nullish(),
});

const request = z.looseObject({
  resourceSpans: z
    .array(
      z.looseObject({
        resource: z.looseObject({ attributes: attributeList }).nullish(),
        scopeSpans: z
          .array(
            z.looseObject({
              scope: z.looseObject({ name: z.string().nullish(), version: z.string().nullish() }).nullish(),
              spans: z.array(span).nullish(),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
});

const MAX_BODY_DEPTH = 16 + 4 * MAX_DEPTH;

const OTHER_SIGNALS: Record<string, string> = { resourceLogs: "logs", resourceMetrics: "metrics", resourceProfiles: "profiles" };

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "body"}: ${i.message}`)
    .join("; ");
}

export function decodeJsonRequest(bytes: Buffer): ExportRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new OtlpDecodeError(`Body is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new OtlpDecodeError("Body is not an OTLP/JSON ExportTraceServiceRequest object.");
  }
  // Decoding recurses; a body nesting deeper than any span can keep (the envelope, then four levels
  // per kvlistValue level, up to MAX_DEPTH) is refused before it overflows the stack.
  if (jsonDepth(parsed, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw new OtlpDecodeError(
      `Body nests deeper than ${MAX_BODY_DEPTH} levels; an attribute value (kvlistValue, arrayValue) may nest at most ${MAX_DEPTH} levels.`,
    );
  }
  const body = camelize(parsed) as Record<string, unknown>;
  if (!("resourceSpans" in body)) {
    const other = Object.keys(OTHER_SIGNALS).find((k) => k in body);
    if (other) throw new OtlpDecodeError(`This is an OTLP ${OTHER_SIGNALS[other]} payload; this endpoint accepts traces only.`);
  }
  const result = request.safeParse(body);
  if (!result.success) throw new OtlpDecodeError(`Body is not an OTLP/JSON ExportTraceServiceRequest: ${describe(result.error)}`);
  return normalizeRequest(result.data as RawRequest);
}
