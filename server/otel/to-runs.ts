import { jsonDepth, MAX_DEPTH } from "../core/json-depth";
import { dottedStamp, formatMicros } from "../core/time";
import { dottedDepth, traceTooDeep } from "../core/trace-depth";
import { asUuid, uuidFromOtelSpanId, validHexId } from "./ids";
import { readSpan, type SpanReading } from "./map";
import type { Draft, RunType, UsageMetadata } from "./map/types";
import { completeUsage } from "./map/usage";
import { STATUS_ERROR, type ExportRequest, type OtlpEvent, type OtlpSpan } from "./otlp";

/** A run exactly as the langsmith SDK would post it for the span (a type literal, so ingest's open run type accepts it). */
export type WireRun = {
  id: string;
  trace_id?: string;
  parent_run_id?: string;
  dotted_order?: string;
  name: string;
  run_type: RunType;
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  extra: { metadata: Record<string, unknown>; invocation_params?: Record<string, unknown> };
  events: { name: string; time: string; kwargs?: Record<string, unknown> }[];
  tags: string[];
  start_time: string;
  end_time?: string;
  error?: string;
  session_name?: string;
  session_id?: string;
  reference_example_id?: string;
};

export interface SpansToRuns {
  runs: WireRun[];
  rejected: { count: number; message: string };
}

/** Events whose content the adapters have already turned into inputs and outputs. */
const CONTENT_EVENTS =
  /^gen_ai\.(system|user|assistant|tool)\.message$|^gen_ai\.choice$|^gen_ai\.content\.|^gen_ai\.client\.inference\.operation\.details$/;

interface Accepted {
  span: OtlpSpan;
  draft: Draft;
  owns: SpanReading["owns"];
  id: string;
  parentSpanId: string | null;
  startMicros: bigint;
  endMicros: bigint | null;
}

/** 9999-12-31T23:59:59.999999999Z: later times have no ISO-8601 form. */
const LAST_NANOS = 253_402_300_799_999_999_999n;

function check(span: OtlpSpan): string | null {
  if (!validHexId(span.traceId, 16)) return "missing or invalid trace id";
  if (!validHexId(span.spanId, 8)) return "missing or invalid span id";
  if (span.startTimeUnixNano === null) return "missing start time";
  if (span.startTimeUnixNano > LAST_NANOS || (span.endTimeUnixNano ?? 0n) > LAST_NANOS) return "time after year 9999";
  if (span.endTimeUnixNano !== null && span.endTimeUnixNano < span.startTimeUnixNano) return "end time before start time";
  return tooDeep(span.attributes) ?? tooDeep(span.resource) ?? span.events.map((e) => tooDeep(e.attributes)).find(Boolean) ?? null;
}

/** A structured attribute (kvlistValue, arrayValue) nesting deeper than a run's content may. */
function tooDeep(attributes: OtlpSpan["attributes"]): string | null {
  const key = Object.keys(attributes).find((k) => jsonDepth(attributes[k]) > MAX_DEPTH);
  return key === undefined ? null : `attribute ${JSON.stringify(key)} nests deeper than ${MAX_DEPTH} levels`;
}

/** `exception` events (message + stacktrace, as LangSmith shows them), else the ERROR status message. */
function errorOf(span: OtlpSpan): string | undefined {
  const exceptions = span.events
    .filter((e) => e.name === "exception")
    .map((e) => {
      const a = e.attributes;
      const head = [a["exception.type"], a["exception.message"]].filter((x) => x !== undefined && x !== "").join(": ");
      return a["exception.stacktrace"] ? `${head}\n\n${a["exception.stacktrace"]}` : head;
    });
  if (exceptions.length) return exceptions.join("\n\n");
  if (span.status.code === STATUS_ERROR) return span.status.message || "Span ended with status ERROR";
  return undefined;
}

const iso = (nanos: bigint) => formatMicros(nanos / 1000n);

function runEvents(span: OtlpSpan, draft: Draft): WireRun["events"] {
  const events = span.events
    .filter((e: OtlpEvent) => !CONTENT_EVENTS.test(e.name) && e.timeUnixNano !== null)
    .map((e) => ({ name: e.name, time: iso(e.timeUnixNano!), ...(Object.keys(e.attributes).length ? { kwargs: e.attributes } : {}) }));
  // Native streaming runs record tokens as `new_token` events; the first one gives time-to-first-token.
  if (draft.firstTokenAfterNanos !== undefined && span.startTimeUnixNano !== null) {
    events.unshift({ name: "new_token", time: iso(span.startTimeUnixNano + draft.firstTokenAfterNanos), kwargs: { token: "" } });
  }
  return events;
}

function metadataOf(span: OtlpSpan, draft: Draft, owns: SpanReading["owns"], usage: UsageMetadata | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(span.attributes)) if (!owns(key)) kept[key] = value;
  return {
    ...span.resource,
    ...kept,
    otel_trace_id: span.traceId.toLowerCase(),
    otel_span_id: span.spanId.toLowerCase(),
    ...(span.scope.name ? { otel_scope: span.scope.name } : {}),
    ...(draft.provider ? { ls_provider: draft.provider } : {}),
    ...(draft.model ? { ls_model_name: draft.model } : {}),
    ...draft.metadata,
    ...(usage ? { usage_metadata: usage } : {}),
  };
}

/** The project: the Langsmith-Project header, else the span's session attributes, else "default". */
function session(draft: Draft, span: OtlpSpan, projectName: string | undefined): Pick<WireRun, "session_name" | "session_id"> {
  if (projectName) return { session_name: projectName };
  const sessionId = asUuid(draft.sessionId);
  const name =
    draft.sessionName ??
    (typeof span.resource["openinference.project.name"] === "string" ? span.resource["openinference.project.name"] : undefined);
  if (name) return { session_name: name };
  if (sessionId) return { session_id: sessionId };
  return { session_name: "default" };
}

const SEGMENT = /^\d{8}T\d{12}Z([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A given dotted_order is kept only if it agrees with the run's ids; a bad one would fail the whole request downstream. */
function consistentDottedOrder(
  dotted: string | undefined,
  id: string,
  parentId: string | undefined,
  traceId: string | undefined,
): string | undefined {
  if (!dotted) return undefined;
  const ids = dotted.split(".").map((s) => SEGMENT.exec(s)?.[1]?.toLowerCase());
  if (ids.some((x) => !x) || ids[ids.length - 1] !== id) return undefined;
  if (traceId && ids[0] !== traceId) return undefined;
  if ((ids.length > 1 ? ids[ids.length - 2] : undefined) !== parentId) return undefined;
  return dotted;
}

/** Maps decoded spans to runs; a span that cannot be mapped is counted as rejected, never thrown. */
export function spansToRuns(request: ExportRequest, options: { projectName?: string } = {}): SpansToRuns {
  const reasons: string[] = [];
  const accepted: Accepted[] = [];
  for (const span of request.spans) {
    const problem = check(span);
    if (problem) {
      reasons.push(`span ${span.spanId || "(no id)"}: ${problem}`);
      continue;
    }
    const { draft, owns } = readSpan(span);
    const spanId = span.spanId.toLowerCase();
    const isRoot = span.attributes["langsmith.is_root"] === true || span.attributes["langsmith.is_root"] === "true";
    accepted.push({
      span,
      draft,
      owns,
      id: draft.runId ?? uuidFromOtelSpanId(spanId),
      parentSpanId: isRoot ? null : validHexId(span.parentSpanId, 8),
      startMicros: span.startTimeUnixNano! / 1000n,
      endMicros: span.endTimeUnixNano === null ? null : span.endTimeUnixNano / 1000n,
    });
  }

  // A parent sent in the same request may carry a langsmith.span.id: children must point at that id.
  const bySpanId = new Map(accepted.map((a) => [a.span.spanId.toLowerCase(), a]));
  const parentOf = (a: Accepted): Accepted | undefined => (a.parentSpanId ? bySpanId.get(a.parentSpanId) : undefined);
  const parentRunId = (a: Accepted): string | undefined =>
    a.draft.parentRunId ?? (a.parentSpanId ? (parentOf(a)?.id ?? uuidFromOtelSpanId(a.parentSpanId)) : undefined);

  // A parent chain that loops would make ingest refuse the whole request: reject those spans alone.
  // Each span's chain is walked until it meets a span already known to reach a root (or a cycle),
  // so a deep trace costs one walk, not one per span.
  const looping = new Set<Accepted>();
  const reachesRoot = new Set<Accepted>();
  const cyclic = new Set<Accepted>();
  for (const a of accepted) {
    const path = new Set<Accepted>();
    let p: Accepted | undefined = a;
    while (p && !reachesRoot.has(p) && !cyclic.has(p) && !path.has(p)) {
      path.add(p);
      p = parentOf(p);
    }
    const cycles = p !== undefined && !reachesRoot.has(p);
    for (const x of path) (cycles ? cyclic : reachesRoot).add(x);
    if (cycles) {
      looping.add(a);
      reasons.push(`span ${a.span.spanId}: its parent chain forms a cycle`);
    }
  }
  // Placement within the request: trace id and dotted_order when the chain reaches a root here, and
  // how deep the span sits when that is known. A span deeper than a trace may nest is rejected alone
  // (its order is never built: a chain of N spans would build N orders of up to N segments).
  type Place = { traceId?: string; dotted?: string; depth?: number };
  const placed = new Map<Accepted, Place>();
  const placeParent = (a: Accepted): Accepted | undefined =>
    !a.draft.parentRunId || a.draft.parentRunId === parentOf(a)?.id ? parentOf(a) : undefined;
  const placeUnder = (a: Accepted, up: Place | undefined): Place => {
    const own = `${dottedStamp(a.startMicros)}${a.id}`;
    const parentId = parentRunId(a);
    let result: Place;
    if (!parentId) result = { traceId: a.draft.traceId ?? a.id, dotted: own, depth: 1 };
    else if (up) {
      const depth = up.depth === undefined ? undefined : up.depth + 1;
      if (depth !== undefined && traceTooDeep(depth)) return { depth };
      result = { traceId: a.draft.traceId ?? up.traceId, dotted: up.dotted ? `${up.dotted}.${own}` : undefined, depth };
    } else result = { traceId: a.draft.traceId };
    const given = consistentDottedOrder(a.draft.dottedOrder, a.id, parentId, result.traceId);
    if (given) result = { traceId: result.traceId ?? given.slice(22, 58).toLowerCase(), dotted: given, depth: dottedDepth(given) };
    // A langsmith.trace.id that is not the root's id cannot sit beside a computed order: ingest places it.
    else if (result.dotted && result.traceId && result.dotted.slice(22, 58) !== result.traceId)
      result = { traceId: result.traceId, depth: result.depth };
    return result;
  };
  for (const a of accepted) {
    if (looping.has(a)) continue;
    const chain: Accepted[] = [];
    for (let p: Accepted | undefined = a; p && !placed.has(p); p = placeParent(p)) chain.push(p);
    for (let i = chain.length - 1; i >= 0; i--) {
      const parent = placeParent(chain[i]);
      placed.set(chain[i], placeUnder(chain[i], parent && placed.get(parent)));
    }
  }
  const deep = new Set<Accepted>();
  for (const a of accepted) {
    const why = looping.has(a) ? null : traceTooDeep(placed.get(a)!.depth ?? 0);
    if (!why) continue;
    deep.add(a);
    reasons.push(`span ${a.span.spanId}: ${why}`);
  }

  const refused = new Set([...looping, ...deep]);
  const runs = accepted
    .filter((a) => !refused.has(a))
    .map((a): WireRun => {
      const { span, draft } = a;
      const { traceId, dotted } = placed.get(a)!;
      const runType = draft.runType ?? "chain";
      const usage = draft.usage && (runType === "llm" || runType === "embedding") ? completeUsage(draft.usage) : undefined;
      const outputs = usage ? { ...draft.outputs, usage_metadata: usage } : draft.outputs;
      const params = draft.invocationParams ?? {};
      const run: WireRun = {
        id: a.id,
        name: draft.name ?? (span.name || "span"),
        run_type: runType,
        inputs: draft.inputs ?? {},
        extra: { metadata: metadataOf(span, draft, a.owns, usage), ...(Object.keys(params).length ? { invocation_params: params } : {}) },
        events: runEvents(span, draft),
        tags: draft.tags ?? [],
        start_time: formatMicros(a.startMicros),
        ...session(draft, span, options.projectName),
      };
      if (traceId) run.trace_id = traceId;
      const parentId = parentRunId(a);
      if (parentId) run.parent_run_id = parentId;
      if (dotted) run.dotted_order = dotted;
      if (outputs) run.outputs = outputs;
      if (a.endMicros !== null) run.end_time = formatMicros(draft.instant ? a.startMicros : a.endMicros);
      const error = errorOf(span) ?? draft.error;
      if (error) run.error = error;
      if (draft.referenceExampleId) run.reference_example_id = draft.referenceExampleId;
      return run;
    });

  const count = reasons.length;
  const message = count
    ? `${count} span${count === 1 ? "" : "s"} rejected: ${reasons.slice(0, 5).join("; ")}${count > 5 ? "; …" : ""}`
    : "";
  return { runs, rejected: { count, message } };
}
