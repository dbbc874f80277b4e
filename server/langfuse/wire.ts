import type { WireFeedback } from "../feedback/wire";
import type { WireRun } from "../runs/serialize";

/**
 * Runs and feedback in the shapes Langfuse's public API answers (`Trace`, `Observation`, `Score`),
 * undoing the wrapping `to-runs.ts` does so a value reads back as it was sent.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A Langfuse id of a run (or feedback's run): the id it was sent with, else the run id. */
export type LangfuseIdOf = (runId: string | null) => string | null;

const only = (value: unknown, key: string) => (isObj(value) && Object.keys(value).length === 1 && key in value ? value[key] : undefined);

function unwrapInput(value: unknown): unknown {
  return only(value, "input") ?? only(value, "messages") ?? value ?? null;
}

function unwrapOutput(value: unknown): unknown {
  const choices = only(value, "choices");
  if (Array.isArray(choices) && choices.length === 1 && isObj(choices[0]) && isObj(choices[0].message)) {
    const message = choices[0].message;
    return message.role === "assistant" && typeof message.content === "string" && Object.keys(message).length === 2
      ? message.content
      : message;
  }
  return only(value, "output") ?? value ?? null;
}

/** Our metadata keys that are fields of their own in Langfuse; the rest is the caller's metadata. */
const MAPPED = new Set([
  "user_id",
  "session_id",
  "release",
  "version",
  "environment",
  "public",
  "langfuse_trace_id",
  "langfuse_observation_id",
  "langfuse_type",
  "ls_model_name",
  "usage_metadata",
  "level",
  "status_message",
  "prompt_name",
  "prompt_version",
]);
const metadataOf = (run: WireRun) => run.extra.metadata ?? {};
const userMetadata = (meta: Obj) => Object.fromEntries(Object.entries(meta).filter(([k]) => !MAPPED.has(k)));
const text = (v: unknown) => (typeof v === "string" ? v : null);
const latencySeconds = (run: WireRun) => run.latency ?? null;

export function toObservation(run: WireRun, idOf: LangfuseIdOf) {
  const meta = metadataOf(run);
  const kind = text(meta.langfuse_type) ?? (run.run_type === "llm" ? "generation" : "span");
  const parent = run.parent_run_id && run.parent_run_id !== run.trace_id ? idOf(run.parent_run_id) : null;
  const first = run.first_token_time ? Date.parse(run.first_token_time) - Date.parse(run.start_time) : null;
  return {
    id: idOf(run.id)!,
    traceId: idOf(run.trace_id)!,
    type: kind.toUpperCase(),
    name: run.name,
    startTime: run.start_time,
    endTime: run.end_time,
    completionStartTime: run.first_token_time,
    parentObservationId: parent,
    input: unwrapInput(run.inputs),
    output: unwrapOutput(run.outputs),
    metadata: userMetadata(meta),
    level: text(meta.level) ?? (run.error ? "ERROR" : "DEFAULT"),
    statusMessage: text(meta.status_message) ?? run.error,
    version: text(meta.version),
    environment: text(meta.environment) ?? "default",
    model: run.model,
    modelParameters: isObj(run.extra.invocation_params) ? run.extra.invocation_params : null,
    promptName: text(meta.prompt_name),
    usage: { input: run.prompt_tokens, output: run.completion_tokens, total: run.total_tokens, unit: "TOKENS" },
    usageDetails: { input: run.prompt_tokens, output: run.completion_tokens, total: run.total_tokens },
    costDetails: run.total_cost === null ? {} : { input: run.prompt_cost ?? 0, output: run.completion_cost ?? 0, total: run.total_cost },
    calculatedTotalCost: run.total_cost,
    latency: latencySeconds(run),
    timeToFirstToken: first === null ? null : first / 1000,
  };
}

export function toScore(feedback: WireFeedback, idOf: LangfuseIdOf) {
  const source = isObj(feedback.feedback_source) ? feedback.feedback_source : {};
  const meta = isObj(source.metadata) ? source.metadata : {};
  const categorical = feedback.score === null;
  const dataType = text(meta.data_type) ?? (categorical ? "CATEGORICAL" : "NUMERIC");
  const onRoot = feedback.run_id === feedback.trace_id;
  return {
    id: text(meta.langfuse_score_id) ?? feedback.id,
    traceId: idOf(feedback.trace_id),
    observationId: onRoot ? null : idOf(feedback.run_id),
    name: feedback.key,
    value: categorical ? null : feedback.score,
    stringValue: categorical ? (typeof feedback.value === "string" ? feedback.value : JSON.stringify(feedback.value ?? null)) : undefined,
    dataType,
    source: text(meta.source) ?? "API",
    comment: feedback.comment,
    timestamp: feedback.created_at,
    createdAt: feedback.created_at,
    updatedAt: feedback.modified_at,
    environment: text(meta.environment) ?? "default",
  };
}

export function toTrace(root: WireRun, observations: WireRun[], scores: WireFeedback[], idOf: LangfuseIdOf) {
  const meta = metadataOf(root);
  return {
    id: idOf(root.id)!,
    timestamp: root.start_time,
    name: root.name,
    input: unwrapInput(root.inputs),
    output: unwrapOutput(root.outputs),
    userId: text(meta.user_id),
    sessionId: text(meta.session_id),
    release: text(meta.release),
    version: text(meta.version),
    environment: text(meta.environment) ?? "default",
    metadata: userMetadata(meta),
    tags: root.tags,
    public: meta.public === true,
    latency: latencySeconds(root),
    totalCost: root.total_cost ?? 0,
    htmlPath: root.app_path,
    observations: observations.map((o) => toObservation(o, idOf)),
    scores: scores.map((s) => toScore(s, idOf)),
  };
}
