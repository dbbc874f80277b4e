import { isUtf8 } from "node:buffer";

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, nor a lone UTF-16 surrogate in jsonb, yet both
 * are valid in the JSON clients send. Such content is stored escaped and read back exactly as sent:
 *
 *   U+0000            → U+E000 "0"
 *   a lone surrogate  → U+E000 "u" + its four hex digits
 *   U+E000 itself     → U+E000 "e"        (so the escape is unambiguous)
 *
 * Strings without any of the three are stored untouched, so almost nothing pays for this.
 */
const ESC = "\uE000";
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what PostgreSQL cannot store
const NEEDS_ESCAPE = /[\u0000\uE000\uD800-\uDFFF]/;
const ESCAPED = /\uE000(0|e|u[0-9a-f]{4})/g;
/** What JSON.stringify writes for the three: \u0000, U+E000 raw, \udxxx for a lone surrogate. */
const JSON_NEEDS_ESCAPE = /\\u0000|\uE000|\\ud[89a-f][0-9a-f]{2}/i;

export function escapeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) out += `${ESC}0`;
    else if (c === 0xe000) out += `${ESC}e`;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += text[i] + text[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += `${ESC}u${c.toString(16).padStart(4, "0")}`;
    else out += text[i];
  }
  return out;
}

/**
 * The length of `text` as stored: what an index over it holds (3 bytes of UTF-8 at most per unit).
 * A text longer than `limit` as sent is longer stored too, so it is not escaped to be counted.
 */
export const storedLength = (text: string, limit = Infinity) => (text.length > limit ? text.length : escapeText(text).length);

/** The longest start of `text` whose stored form has at most `limit` units, never splitting a surrogate pair. */
export function truncateStored(text: string, limit: number): string {
  if (text.length <= limit && !NEEDS_ESCAPE.test(text)) return text;
  let end = Math.min(text.length, limit);
  while (end > 0 && storedLength(text.slice(0, end)) > limit) end--;
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff && (text.charCodeAt(end) & 0xfc00) === 0xdc00 ? end - 1 : end);
}

export function unescapeText(text: string): string {
  if (!text.includes(ESC)) return text;
  return text.replace(ESCAPED, (_, code: string) =>
    code === "0" ? "\u0000" : code === "e" ? ESC : String.fromCharCode(parseInt(code.slice(1), 16)),
  );
}

/** JSON.stringify's replacer that escapes every string, object keys included. */
function escapingReplacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "string") return escapeText(value);
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((k) => NEEDS_ESCAPE.test(k))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeText(k), v]));
  }
  return value;
}

/** JSON text of `value` that PostgreSQL accepts, with the escape above wherever it is needed. */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text !== undefined && JSON_NEEDS_ESCAPE.test(text) ? JSON.stringify(value, escapingReplacer) : text;
}

const JSONB_BYTES = Symbol.for("tracelight.jsonbBytes");

/**
 * JSON text as UTF-8 bytes for a `$n::jsonb` parameter. node-postgres sends it as a binary parameter
 * (jsonb's binary form: the version byte 1, then the text), so a request's rows are never one
 * JavaScript string: parts spliced in go to the socket as the bytes they came as, and one character
 * beyond Latin-1 (a preview's "…") no longer turns the whole JSON into a two-byte string to widen,
 * measure and transcode (about 6× the cost of a one-byte one). PGlite is given the text.
 */
export class JsonbBytes {
  /** A brand, not `instanceof`: the built server may hold this module twice (bundled chunks). */
  readonly [JSONB_BYTES] = true;
  constructor(private readonly bytes: Buffer) {}
  /** What node-postgres sends (a Buffer is a binary parameter). */
  toPostgres(): Buffer {
    return this.bytes;
  }
  text(): string {
    return this.bytes.toString("utf8", 1);
  }
}

export const isJsonbBytes = (value: unknown): value is JsonbBytes =>
  value !== null && typeof value === "object" && (value as Record<symbol, unknown>)[JSONB_BYTES] === true;

/**
 * The UTF-8 bytes (a multipart part of a run) or the text (an OTLP attribute holding a run's
 * inputs) a value was parsed from, so that storing the value again splices them instead of
 * serialising the value anew: the value must not change after.
 */
const PARSED_FROM = new WeakMap<object, Buffer | string>();
const ESC_BYTES = Buffer.from(ESC);
const UNICODE_ESCAPE = Buffer.from("\\u");
/** jsonb's binary form is a version byte (1) and the text. */
const JSONB_START = Buffer.from("\u0001[");
const CLOSE_RECORD = Buffer.from("}");
const CLOSE_ARRAY = Buffer.from("]");

/**
 * Whether JSON text can be stored as the bytes it came as: valid UTF-8 (so it says what it decodes
 * to), holding neither U+E000 nor a \u escape of U+0000, U+E000 or a surrogate (storage escapes
 * those three, see above; such text is serialised anew).
 */
function storableAsSent(bytes: Buffer): boolean {
  if (!isUtf8(bytes) || bytes.includes(ESC_BYTES)) return false;
  for (let i = bytes.indexOf(UNICODE_ESCAPE); i !== -1; i = bytes.indexOf(UNICODE_ESCAPE, i + 2)) {
    const code = bytes.toString("latin1", i + 2, i + 6).toLowerCase();
    if (code === "0000" || code === "e000" || (code >= "d800" && code <= "dfff")) return false;
  }
  return true;
}

/** JSON.parse of UTF-8 bytes, remembering them for an object or array it returns (see storableRecords). */
export function parseKeepingBytes(bytes: Buffer): unknown {
  const value: unknown = JSON.parse(bytes.toString("utf8"));
  if (value !== null && typeof value === "object" && storableAsSent(bytes)) PARSED_FROM.set(value, bytes);
  return value;
}

/**
 * JSON text holding what jsonb refuses or this module escapes (U+0000, U+E000, a surrogate) as an
 * escape or U+E000 itself: such text is serialised anew (a lone surrogate unescaped: isWellFormed).
 */
const TEXT_NEEDS_ESCAPE = /\\u0000|\uE000|\\ue000|\\ud[89a-f]/i;

/** String.prototype.isWellFormed (Node 20; the compiler's library predates it): no lone surrogate. */
const wellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** JSON.parse that remembers the text of an object or array it returns (see storableRecords). */
export function parseKeepingText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (value !== null && typeof value === "object" && !TEXT_NEEDS_ESCAPE.test(text) && wellFormed(text)) PARSED_FROM.set(value, text);
  return value;
}

/**
 * `storableJson` of an array of records, as jsonb bytes, where a record's value parsed by
 * `parseKeepingBytes` or `parseKeepingText` is written as what it was parsed from (PostgreSQL reads the same jsonb
 * from both, and numbers keep the digits they were sent with).
 */
export function storableRecords(records: Record<string, unknown>[]): JsonbBytes {
  const chunks: Buffer[] = [JSONB_START];
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    let rest: Record<string, unknown> | undefined;
    let spliced: [string, Buffer | string][] | undefined;
    for (const key in record) {
      const value = record[key];
      const bytes = value !== null && typeof value === "object" ? PARSED_FROM.get(value) : undefined;
      if (bytes === undefined) continue;
      (spliced ??= []).push([key, bytes]);
      rest ??= { ...record };
      // JSON.stringify leaves out a key whose value is undefined.
      rest[key] = undefined;
    }
    const json = storableJson(rest ?? record);
    const separator = i === 0 ? "" : ",";
    if (!spliced) {
      chunks.push(Buffer.from(separator + json));
      continue;
    }
    // The record without its closing brace, then each spliced key and its bytes.
    let head = json === "{}" ? `${separator}{` : `${separator}${json.slice(0, -1)},`;
    for (const [key, bytes] of spliced) {
      chunks.push(Buffer.from(`${head}${JSON.stringify(key)}:`), typeof bytes === "string" ? Buffer.from(bytes) : bytes);
      head = ",";
    }
    chunks.push(CLOSE_RECORD);
  }
  chunks.push(CLOSE_ARRAY);
  return new JsonbBytes(Buffer.concat(chunks));
}

/** The value as sent: every string (and object key) read back from storage, unescaped. */
export function fromStorage<T>(value: T): T {
  if (typeof value === "string") return unescapeText(value) as T;
  if (Array.isArray(value)) {
    const out = value.map(fromStorage);
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = unescapeText(k);
      const val = fromStorage(v);
      if (key !== k || val !== v) changed = true;
      out[key] = val;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/** The value as it is stored (the inverse of `fromStorage`), for writes through Prisma Client. */
export function toStorage<T>(value: T): T {
  if (typeof value === "string") return escapeText(value) as T;
  return value === null || value === undefined ? value : (JSON.parse(storableJson(value)) as T);
}
