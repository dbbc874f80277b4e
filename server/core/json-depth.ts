import { z } from "zod";

/** How deep stored JSON may nest (run inputs and outputs, feedback values, examples): far beyond any real payload. */
export const MAX_DEPTH = 200;

/**
 * The nesting depth of a JSON value, counted without recursion (a hostile body may nest 100,000
 * deep, and JSON.stringify, zod and PostgreSQL would then fail deep inside with a stack overflow).
 */
export function jsonDepth(value: unknown, limit = MAX_DEPTH): number {
  if (value === null || typeof value !== "object") return 0;
  // Two parallel stacks and no entry for a scalar: a large body is mostly strings and numbers, and
  // a [value, depth] pair per node was most of this check's time (it runs on every OTLP attribute).
  const values: object[] = [value];
  const depths: number[] = [1];
  let deepest = 1;
  while (values.length) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    const children: Iterable<unknown> = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (child !== null && typeof child === "object") {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

export const tooDeep = `nests deeper than ${MAX_DEPTH} levels`;

/** `schema`, refusing values that nest deeper than MAX_DEPTH (checked after the schema's own parse). */
export function shallow<T extends z.ZodType>(schema: T): T {
  return schema.refine((value) => jsonDepth(value) <= MAX_DEPTH, tooDeep);
}
