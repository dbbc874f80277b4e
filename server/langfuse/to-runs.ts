import { randomUUID } from "node:crypto";
import { describeZodError } from "../core/errors";
import { parseInstant } from "../core/time";
import type { WireRun } from "../ingest/schema";
import { asObject, isObservationKind, llmInputs, llmOutputs, OBSERVATION_RUN_TYPES, type ObservationKind } from "./content";
import { runIdOf } from "./ids";
import { scoreToFeedback } from "./scores";
import { envelope, observationBody, scoreBody, traceBody, type Envelope, type ObservationBody, type TraceBody } from "./schema";
import { usageMetadata } from "./usage";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

const OBSERVATION_EVENT = /^([a-z]+)-(create|update)$/;

export interface EventError {
  id: string;
  status: number;
  message: string;
}

/** What one trace's events in the batch say about its root run's times (epoch microseconds). */
export interface TraceTimes {
  /** A trace-create of this trace is in the batch. */
  created: boolean;
  /** The earliest trace timestamp sent. */
  start: bigint | null;
  /** The latest time any event of the trace mentions: the SDK's clock when it last touched the trace. */
  latest: bigint | null;
}

export interface MappedBatch {
  posts: WireRun[];
  patches: WireRun[];
  feedback: Obj[];
  /** Each stored event, in batch order, with the run id (or "feedback") whose fate answers it; null for sdk-log. */
  targets: { id: string; target: string | null }[];
  errors: EventError[];
  /** Root run id → its times in this batch. */
  traces: Map<string, TraceTimes>;
}

/** The caller's metadata (any JSON in Langfuse) first, so the fields we map from win over its keys. */
function metadataOf(userMetadata: unknown, ours: Obj): Obj {
  const user = isObj(userMetadata) ? userMetadata : userMetadata === undefined || userMetadata === null ? {} : { metadata: userMetadata };
  return { ...user, ...compact(ours) };
}

function traceRun(body: TraceBody, id: string, project: string): WireRun {
  return {
    id: runIdOf(id),
    name: given(body.name),
    run_type: "chain",
    session_name: project,
    inputs: asObject(body.input, "input"),
    outputs: asObject(body.output, "output"),
    tags: given(body.tags),
    extra: {
      metadata: metadataOf(body.metadata, {
        user_id: body.userId,
        session_id: body.sessionId,
        release: body.release,
        version: body.version,
        environment: body.environment,
        public: body.public,
        langfuse_trace_id: id,
      }),
    },
  };
}

function observationRun(
  kind: ObservationKind,
  body: ObservationBody,
  id: string,
  created: boolean,
  event: Envelope,
  project: string,
): WireRun {
  const llm = kind === "generation";
  const start = given(body.startTime) ?? (created ? given(event.timestamp) : undefined);
  // An observation without a parent hangs from its trace; an update that does not name the parent
  // leaves the place its create gives.
  const parent = body.parentObservationId ?? (created ? body.traceId : undefined);
  const usage = llm ? usageMetadata(body) : undefined;
  return {
    id: runIdOf(id),
    name: given(body.name),
    run_type: OBSERVATION_RUN_TYPES[kind],
    session_name: project,
    start_time: start,
    // An event is a point in time: it ends where it starts.
    end_time: kind === "event" ? (given(body.endTime) ?? start) : given(body.endTime),
    trace_id: body.traceId ? runIdOf(body.traceId) : undefined,
    parent_run_id: parent ? runIdOf(parent) : undefined,
    inputs: llm ? llmInputs(body.input) : asObject(body.input, "input"),
    outputs: llm ? llmOutputs(body.output) : asObject(body.output, "output"),
    error: body.level === "ERROR" ? (body.statusMessage ?? "ERROR") : undefined,
    events: body.completionStartTime ? [{ name: "new_token", time: body.completionStartTime }] : undefined,
    extra: compact({
      invocation_params: body.modelParameters,
      metadata: metadataOf(body.metadata, {
        ls_model_name: body.model,
        usage_metadata: usage,
        level: body.level,
        status_message: body.statusMessage,
        version: body.version,
        environment: body.environment,
        prompt_name: body.promptName,
        prompt_version: body.promptVersion,
        langfuse_type: kind,
        langfuse_observation_id: id,
        langfuse_trace_id: body.traceId,
      }),
    }),
  };
}

function noteTimes(traces: Map<string, TraceTimes>, traceId: string, times: unknown[], start?: unknown): TraceTimes {
  const key = runIdOf(traceId);
  const entry = traces.get(key) ?? { created: false, start: null, latest: null };
  for (const t of times) {
    const micros = t === undefined || t === null ? null : parseInstant(t);
    if (micros !== null && (entry.latest === null || micros > entry.latest)) entry.latest = micros;
  }
  const first = start === undefined || start === null ? null : parseInstant(start);
  if (first !== null && (entry.start === null || first < entry.start)) entry.start = first;
  traces.set(key, entry);
  return entry;
}

/**
 * A Langfuse ingestion batch as ingest operations: creates are posts, updates patches (ingest
 * folds posts before patches, as Langfuse orders creates before updates, and merges field by
 * field whatever the order across requests); scores are feedback. Every run carries the project
 * (the public key) and its place (trace and parent), so an update arriving first lands where its
 * create will. Events that cannot be read are answered alone.
 */
export function mapBatch(batch: unknown[], project: string): MappedBatch {
  const out: MappedBatch = { posts: [], patches: [], feedback: [], targets: [], errors: [], traces: new Map() };
  batch.forEach((raw, i) => {
    const parsed = envelope.safeParse(raw);
    if (!parsed.success) {
      const id = isObj(raw) && typeof raw.id === "string" && raw.id ? raw.id : `batch[${i}]`;
      out.errors.push({ id, status: 400, message: describeZodError(parsed.error, `batch[${i}]`) });
      return;
    }
    const event = parsed.data;
    const fail = (message: string) => out.errors.push({ id: event.id, status: 400, message });
    if (event.type === "sdk-log") {
      out.targets.push({ id: event.id, target: null });
      return;
    }
    if (event.type === "trace-create") {
      const body = traceBody.safeParse(event.body);
      if (!body.success) return fail(describeZodError(body.error, "body"));
      const id = body.data.id ?? randomUUID();
      const times = noteTimes(out.traces, id, [body.data.timestamp, event.timestamp], body.data.timestamp ?? event.timestamp);
      times.created = true;
      const run = traceRun(body.data, id, project);
      out.posts.push(run);
      out.targets.push({ id: event.id, target: run.id! });
      return;
    }
    if (event.type === "score-create") {
      const body = scoreBody.safeParse(event.body);
      if (!body.success) return fail(describeZodError(body.error, "body"));
      const mapped = scoreToFeedback(body.data, event.timestamp);
      if ("error" in mapped) return fail(mapped.error);
      out.feedback.push(mapped.feedback);
      out.targets.push({ id: event.id, target: "feedback" });
      return;
    }
    const match = OBSERVATION_EVENT.exec(event.type);
    const legacy = match?.[1] === "observation";
    if (!match || (!legacy && !isObservationKind(match[1]))) return fail(`Unknown event type "${event.type}".`);
    const body = observationBody.safeParse(event.body);
    if (!body.success) return fail(describeZodError(body.error, "body"));
    const kind = legacy ? (body.data.type ?? "span").toLowerCase() : match[1];
    if (!isObservationKind(kind)) return fail(`Unknown observation type "${body.data.type}".`);
    const created = match[2] === "create";
    if (!created && !body.data.id) return fail(`A ${event.type} must name the observation it updates in body.id.`);
    const id = body.data.id ?? randomUUID();
    const run = observationRun(kind, body.data, id, created, event, project);
    if (body.data.traceId) {
      noteTimes(out.traces, body.data.traceId, [event.timestamp, run.start_time, run.end_time, body.data.completionStartTime]);
    }
    (created ? out.posts : out.patches).push(run);
    out.targets.push({ id: event.id, target: run.id! });
  });
  return out;
}
