import { parse as parseArray } from "postgres-array";
import { z } from "zod";
import { fromStorage } from "../db/storable";

/** How a column's values are encoded in JSON (the client's `SqlQueryResponse.Column.data_type`). */
export const dataType = z.enum(["uuid", "string", "integer", "float", "boolean", "timestamp", "date", "binary", "list", "object", "null"]);
export type DataType = z.infer<typeof dataType>;

interface Codec {
  type: DataType;
  decode(text: string): unknown;
}

const text: Codec = { type: "string", decode: (value) => fromStorage(value) };
const integer: Codec = { type: "integer", decode: (value) => (Number.isSafeInteger(Number(value)) ? Number(value) : value) };
const float: Codec = { type: "float", decode: (value) => (Number.isFinite(Number(value)) ? Number(value) : floatWord(value)) };
/** PostgreSQL writes timestamps as `2026-11-26 11:20:13.123456+00` (the query runs in UTC): RFC 3339 instead. */
const timestamp = (zoned: boolean): Codec => ({
  type: "timestamp",
  decode: (value) => (/^\d/.test(value) ? value.replace(" ", "T").replace(/\+00$/, "Z") + (zoned ? "" : "Z") : value),
});

const CODECS: Record<number, Codec> = {
  16: { type: "boolean", decode: (value) => value === "t" },
  17: { type: "binary", decode: (value) => Buffer.from(value.slice(2), "hex").toString("base64") },
  18: text,
  19: text,
  25: text,
  1042: text,
  1043: text,
  20: integer,
  21: integer,
  23: integer,
  26: integer,
  700: float,
  701: float,
  1700: float,
  2950: { type: "uuid", decode: (value) => value },
  1082: { type: "date", decode: (value) => value },
  1114: timestamp(false),
  1184: timestamp(true),
  114: { type: "object", decode: (value) => fromStorage(JSON.parse(value)) },
  3802: { type: "object", decode: (value) => fromStorage(JSON.parse(value)) },
  705: { type: "null", decode: (value) => value },
};

/** Array types by their element type. */
const ARRAYS: Record<number, number> = {
  1000: 16,
  1001: 17,
  1002: 18,
  1003: 19,
  1009: 25,
  1014: 1042,
  1015: 1043,
  1016: 20,
  1005: 21,
  1007: 23,
  1028: 26,
  1021: 700,
  1022: 701,
  1231: 1700,
  2951: 2950,
  1182: 1082,
  1115: 1114,
  1185: 1184,
  199: 114,
  3807: 3802,
};

/** The codec for a column of type `oid`: JSON's closest shape, PostgreSQL's text for the rest (intervals, times, records). */
export function codec(oid: number): Codec {
  const own = CODECS[oid];
  if (own) return own;
  const element = ARRAYS[oid];
  if (element !== undefined) {
    const inner = codec(element);
    return { type: "list", decode: (value) => parseArray(value, inner.decode) };
  }
  return text;
}

function floatWord(value: string): string {
  return value === "NaN" ? "NaN" : value.startsWith("-") ? "-Infinity" : "Infinity";
}
