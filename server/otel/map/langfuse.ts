import { parseInstant } from "../../core/time";
import { asObject, isObservationKind, llmInputs, llmOutputs, OBSERVATION_RUN_TYPES } from "../../langfuse/content";
import { usageMetadata } from "../../langfuse/usage";
import { isRecord, parsed, str, withPrefix } from "../attrs";
import type { Attributes, OtlpSpan } from "../otlp";
import type { Adapter, Draft } from "./types";

/**
 * Langfuse's own attributes, as `@langfuse/tracing` (JS v4+) and the Python SDK (v3+) write them:
 * `langfuse.observation.*` on every observation, trace-level ones (`langfuse.trace.*`, `user.id`,
 * `session.id`) on the spans they were set or propagated on. Content values are JSON strings.
 * The mapping is the ingestion API's (server/langfuse), so both routes give the same run.
 */
const OBSERVATION = "langfuse.observation.";
const TRACE = "langfuse.trace.";
/** Keys read into the run's fields; any other `langfuse.*` key (experiments …) is kept as metadata. */
const READ = new Set([
  "langfuse.observation.type",
  "langfuse.observation.input",
  "langfuse.observation.output",
  "langfuse.observation.level",
  "langfuse.observation.status_message",
  "langfuse.observation.completion_start_time",
  "langfuse.observation.model.name",
  "langfuse.observation.model.parameters",
  "langfuse.observation.usage_details",
  "langfuse.observation.cost_details",
  "langfuse.observation.prompt.name",
  "langfuse.observation.prompt.version",
  "langfuse.observation.metadata",
  "langfuse.trace.name",
  "langfuse.trace.input",
  "langfuse.trace.output",
  "langfuse.trace.tags",
  "langfuse.trace.public",
  "langfuse.trace.metadata",
  "langfuse.environment",
  "langfuse.release",
  "langfuse.version",
  "langfuse.user.id",
  "langfuse.session.id",
]);

function isLangfuseSpan(a: Attributes): boolean {
  for (const key in a) if (key.startsWith("langfuse.")) return true;
  return false;
}

/** The SDKs send metadata flattened one key per attribute, non-strings as JSON; or a whole non-object value. */
function metadataOf(a: Attributes, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const whole = parsed(a[prefix]);
  if (whole !== undefined && whole !== null) Object.assign(out, isRecord(whole) ? whole : { metadata: whole });
  for (const [key, value] of Object.entries(withPrefix(a, `${prefix}.`))) out[key] = parsed(value);
  return out;
}

function tagsOf(value: unknown): string[] | undefined {
  const list = parsed(value);
  if (Array.isArray(list)) return list.filter((t): t is string => typeof t === "string" && t !== "");
  return typeof list === "string" && list ? [list] : undefined;
}

/** Nanoseconds from the span's start to `completion_start_time` (a JSON-quoted ISO time), for time-to-first-token. */
function firstTokenAfter(span: OtlpSpan, value: unknown): bigint | undefined {
  const micros = parseInstant(parsed(value));
  if (micros === null || span.startTimeUnixNano === null) return undefined;
  const after = micros * 1000n - span.startTimeUnixNano;
  return after >= 0n ? after : undefined;
}

const given = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : v);

export const langfuseAdapter: Adapter = {
  name: "langfuse",
  prefixes: ["langfuse.", "user.id", "session.id"],
  map(span: OtlpSpan): Draft | null {
    const a = span.attributes;
    if (!isLangfuseSpan(a)) return null;
    const type = str(a, "langfuse.observation.type")?.toLowerCase();
    const kind = type && isObservationKind(type) ? type : undefined;
    const llm = kind === "generation";
    const root = !span.parentSpanId;
    const input = parsed(a[`${OBSERVATION}input`] ?? (root ? a[`${TRACE}input`] : undefined));
    const output = parsed(a[`${OBSERVATION}output`] ?? (root ? a[`${TRACE}output`] : undefined));
    const level = str(a, `${OBSERVATION}level`);
    const statusMessage = str(a, `${OBSERVATION}status_message`);
    const params = parsed(a[`${OBSERVATION}model.parameters`]);
    const usageDetails = parsed(a[`${OBSERVATION}usage_details`]);
    const costDetails = parsed(a[`${OBSERVATION}cost_details`]);
    const usage = usageMetadata({
      usageDetails: isRecord(usageDetails) ? usageDetails : null,
      costDetails: isRecord(costDetails) ? costDetails : null,
    });

    const extra: Record<string, unknown> = {};
    for (const key in a) if (key.startsWith("langfuse.") && !READ.has(key) && !key.startsWith("langfuse.internal.")) extra[key] = a[key];
    const metadata: Record<string, unknown> = {
      ...metadataOf(a, `${TRACE}metadata`),
      ...metadataOf(a, `${OBSERVATION}metadata`),
      ...extra,
    };
    const ours: Record<string, unknown> = {
      user_id: given(a["user.id"] ?? a["langfuse.user.id"]),
      session_id: given(a["session.id"] ?? a["langfuse.session.id"]),
      environment: given(a["langfuse.environment"]),
      release: given(a["langfuse.release"]),
      version: given(a["langfuse.version"]),
      public: a[`${TRACE}public`] ?? undefined,
      level: given(level),
      status_message: given(statusMessage),
      prompt_name: given(a[`${OBSERVATION}prompt.name`]),
      prompt_version: given(a[`${OBSERVATION}prompt.version`]),
      langfuse_type: kind,
    };
    for (const [key, value] of Object.entries(ours)) if (value !== undefined) metadata[key] = value;

    return {
      name: root ? str(a, `${TRACE}name`) : undefined,
      runType: kind ? OBSERVATION_RUN_TYPES[kind] : undefined,
      inputs: llm ? llmInputs(input) : asObject(input, "input"),
      outputs: llm ? llmOutputs(output) : asObject(output, "output"),
      metadata,
      invocationParams: isRecord(params) ? params : undefined,
      usage,
      tags: tagsOf(a[`${TRACE}tags`]),
      model: str(a, `${OBSERVATION}model.name`),
      instant: kind === "event" || undefined,
      error: level === "ERROR" ? statusMessage || "ERROR" : undefined,
      firstTokenAfterNanos: firstTokenAfter(span, a[`${OBSERVATION}completion_start_time`]),
    };
  },
};
