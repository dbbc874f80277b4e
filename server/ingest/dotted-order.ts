import { badRequest } from "../core/errors";
import { MAX_DOTTED_ORDER_LENGTH, MAX_TRACE_DEPTH } from "../core/trace-depth";

const SEGMENT = /^(\d{8}T\d{6}\d{6}Z)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export interface Segment {
  stamp: string;
  id: string;
}

/** Splits `stamp+uuid.stamp+uuid…`; each segment is a 22-character stamp and a 36-character UUID. */
export function parseDottedOrder(dotted: string, runId: string): Segment[] {
  if (dotted.length > MAX_DOTTED_ORDER_LENGTH) {
    throw badRequest(
      `Run ${runId}: its dotted_order (${dotted.length.toLocaleString("en-US")} characters) nests deeper than a trace may (${MAX_TRACE_DEPTH.toLocaleString("en-US")} levels).`,
    );
  }
  const segments = dotted.split(".").map((part, i) => {
    const m = SEGMENT.exec(part);
    if (!m) {
      throw badRequest(
        `Run ${runId}: dotted_order segment ${i + 1} ("${part.slice(0, 80)}") is not YYYYMMDDTHHMMSSffffffZ followed by a UUID.`,
      );
    }
    return { stamp: m[1], id: m[2].toLowerCase() };
  });
  if (segments[segments.length - 1].id !== runId.toLowerCase()) {
    throw badRequest(`Run ${runId}: the last dotted_order segment names ${segments[segments.length - 1].id}, not the run itself.`);
  }
  return segments;
}
