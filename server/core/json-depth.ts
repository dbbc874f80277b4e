import { z } from "zod";

/** How deep stored JSON may nest (run inputs and outputs, feedback values, examples): far beyond any real payload. */
export const MAX_DEPTH = 200;

/**
 * The nesting depth of a JSON value, counted without recursion (a hostile body may nest 100,000
 * deep, and JSON.stringify, zod and PostgreSQL would then fail deep inside with a stack overflow).
 */
export function jsonDepth(value: unknown, limit = MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export const tooDeep = `nests deeper than ${MAX_DEPTH} levels`;

/** `schema`, refusing values that nest deeper than MAX_DEPTH (checked after the schema's own parse). */
export function shallow<T extends z.ZodType>(schema: T): T {
  return schema.refine((value) => jsonDepth(value) <= MAX_DEPTH, tooDeep);
}
