/**
 * How many levels a trace may nest (a root is level 1). A run's dotted_order names every ancestor,
 * so a chain of N nested runs stores N orders of up to N segments: without a bound one request of
 * 10,000 nested spans built 3 GB of orders. No real trace comes near it.
 */
export const MAX_TRACE_DEPTH = 1000;

/** A dotted_order segment is a 22-character stamp and a 36-character UUID; segments are joined by dots. */
const SEGMENT_WITH_DOT = 59;

/** The longest dotted_order a run may have. */
export const MAX_DOTTED_ORDER_LENGTH = MAX_TRACE_DEPTH * SEGMENT_WITH_DOT - 1;

/** How deep a well-formed dotted_order sits, from its length alone (every segment has the same length). */
export function dottedDepth(dotted: string): number {
  return (dotted.length + 1) / SEGMENT_WITH_DOT;
}

/** Why a run cannot be placed `depth` levels deep, or null when it can. */
export function traceTooDeep(depth: number): string | null {
  return depth > MAX_TRACE_DEPTH
    ? `it would nest ${depth.toLocaleString("en-US")} levels deep in its trace; a trace nests at most ${MAX_TRACE_DEPTH.toLocaleString("en-US")} levels`
    : null;
}
