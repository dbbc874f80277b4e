import { jsonDepth, MAX_DEPTH } from "../core/json-depth";
import { parseKeepingText } from "../db/storable";
import type { Attributes, AttrValue } from "./otlp";

/** Attribute helpers shared by the adapters: typed reads, JSON-or-structured values, flattened lists. */

export function str(attrs: Attributes, key: string): string | undefined {
  const v = attrs[key];
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

export function num(attrs: Attributes, key: string): number | undefined {
  const v = attrs[key];
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The first of several keys that is present (current names before deprecated ones). */
export function firstNum(attrs: Attributes, keys: string[]): number | undefined {
  for (const key of keys) {
    const n = num(attrs, key);
    if (n !== undefined) return n;
  }
  return undefined;
}

/**
 * Content attributes come as structured values or as JSON strings. A string that is not JSON, or
 * whose JSON nests deeper than MAX_DEPTH, stays the string it was: the span is kept, and so is what
 * the exporter sent.
 */
export const parsed = (value: unknown): unknown => parsedBy(value, JSON.parse);

/** `parsed`, remembering the text of an object it returns: storing that object splices the text (db/storable). */
export const parsedKeepingText = (value: unknown): unknown => parsedBy(value, parseKeepingText);

function parsedBy(value: unknown, parse: (text: string) => unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("[") || t.startsWith('"'))) return value;
  try {
    const json: unknown = parse(t);
    return jsonDepth(json) > MAX_DEPTH ? value : json;
  } catch {
    return value;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Objects whose keys are all indexes become arrays, in index order. */
function arrayify(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = arrayify(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((i) => out[String(i)]);
  }
  return out;
}

/**
 * `prefix.0.role`, `prefix.0.content`, `prefix.1.tool_calls.0.name`… → `[{role, content}, {tool_calls: [{name}]}]`.
 * Undefined when no key has the prefix.
 */
export function unflatten(attrs: Attributes, prefix: string): unknown {
  const root: Record<string, unknown> = {};
  let found = false;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    found = true;
    const path = key.slice(prefix.length + 1).split(".");
    let node = root;
    for (const part of path.slice(0, -1)) {
      if (!isRecord(node[part])) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = value;
  }
  return found ? arrayify(root) : undefined;
}

/** `prefix.key` → `{key: value}` for every key with the prefix, the rest of the key kept whole. */
export function withPrefix(attrs: Attributes, prefix: string): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const [key, value] of Object.entries(attrs)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}
