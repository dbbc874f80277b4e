import type { Attributes, OtlpEvent, OtlpSpan } from "./otlp";
import { spansToRuns, type WireRun } from "./to-runs";

/** Builds decoded spans for the mapping tests: realistic ids and times, attributes as given. */
export const TRACE_ID = "5b8efff798038103d269b633813fc60c";
export const T0 = 1_763_884_800_123_456_789n; // 2025-11-23T08:00:00.123456789Z

let counter = 0;
export function spanId(): string {
  counter += 1;
  return (0xa1b2c3d400000000n + BigInt(counter)).toString(16).padStart(16, "0");
}

export function span(attributes: Attributes, overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: TRACE_ID,
    spanId: spanId(),
    parentSpanId: "",
    name: "span",
    kind: 1,
    startTimeUnixNano: T0,
    endTimeUnixNano: T0 + 1_500_000_000n,
    attributes,
    events: [],
    status: { code: 0, message: "" },
    resource: { "service.name": "test-service" },
    scope: { name: "test-scope", version: "1.0.0" },
    ...overrides,
  };
}

export function event(name: string, attributes: Attributes, offsetNanos = 1_000n): OtlpEvent {
  return { name, timeUnixNano: T0 + offsetNanos, attributes };
}

/** The one run a single span maps to. */
export function runOf(s: OtlpSpan, projectName?: string): WireRun {
  const { runs, rejected } = spansToRuns({ spans: [s] }, { projectName });
  if (rejected.count || runs.length !== 1) throw new Error(`expected one run, got ${runs.length} (${rejected.message})`);
  return runs[0];
}
