import { parseInstant, formatMicros } from "../../core/time";
import type { Literal } from "./ast";
import { FilterSyntaxError } from "./errors";
import { UUID } from "../../core/uuid";
import { likeLiteral } from "../../core/like";
import { escapeText } from "../../db/storable";

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^\s*(-?\d+(?:\.\d+)?)\s*(us|ms|s|m|h|d)?\s*$/i;

/** A duration in milliseconds: "250ms", "5s", "1.5m", "2h"; a bare number means seconds. */
export function durationMs(value: Literal, position: number): number {
  if (typeof value === "number") return value * 1000;
  if (typeof value === "string") {
    const m = DURATION.exec(value);
    if (m) return Number(m[1]) * UNIT_MS[(m[2] ?? "s").toLowerCase()];
  }
  throw new FilterSyntaxError(
    position,
    `expected a duration such as "250ms", "5s", "1m" or a number of seconds but found ${JSON.stringify(value)}`,
  );
}

export function instant(value: Literal, position: number): string {
  const micros = typeof value === "string" || typeof value === "number" ? parseInstant(value) : null;
  if (micros === null)
    throw new FilterSyntaxError(position, `expected an ISO-8601 time such as "2024-05-01T12:00:00Z" but found ${JSON.stringify(value)}`);
  return formatMicros(micros);
}

export function uuid(value: Literal, position: number): string {
  if (typeof value !== "string" || !UUID.test(value))
    throw new FilterSyntaxError(position, `expected a UUID but found ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

export function finite(value: Literal, position: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new FilterSyntaxError(position, `expected a number but found ${JSON.stringify(value)}`);
  return n;
}

/**
 * A value compared with stored text, escaped as ingest stores text (U+0000 and lone surrogates,
 * db/storable), so a filter finds what was sent: PostgreSQL could not even take it unescaped.
 */
export function text(value: Literal, position: number): string {
  if (typeof value === "string") return escapeText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new FilterSyntaxError(position, `expected a string but found ${JSON.stringify(value)}`);
}

export function list(value: Literal, position: number): Literal[] {
  if (!Array.isArray(value)) throw new FilterSyntaxError(position, `expected a list such as ["a", "b"] but found ${JSON.stringify(value)}`);
  return value;
}

/** `%` and `_` in a search term match themselves. */
export function likeContains(term: string): string {
  return `%${likeLiteral(term)}%`;
}

/** A filter value that is a JSON object (given as an object or as JSON text), else null. */
export function jsonObjectOf(value: unknown): Record<string, unknown> | null {
  let doc: unknown = value;
  if (typeof value === "string") {
    try {
      doc = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
}
