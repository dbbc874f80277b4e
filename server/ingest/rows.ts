import { deriveLlm, type LlmDerived, type PriceEntry } from "../llm/derive";
import { badRequest } from "../core/errors";
import { previewOf } from "../runs/preview";
import type { PendingRun } from "./merge";
import type { Placement } from "./placement";
import type { WireRun } from "./schema";
import { checkRunType } from "./limits";
import { dottedStamp, formatMicros, parseInstant } from "../core/time";
import type { RunRow } from "../runs/write";

export interface TimedRun extends PendingRun {
  start: bigint | null;
  end: bigint | null;
}

function instant(run: WireRun, field: "start_time" | "end_time"): bigint | null {
  const value = run[field];
  if (value === null || value === undefined) return null;
  const micros = parseInstant(value);
  if (micros === null) {
    throw badRequest(`Run ${run.id}: ${field} ${JSON.stringify(value)} is not an ISO-8601 time or epoch milliseconds.`);
  }
  return micros;
}

/** The run with its times read; a run whose times or run type cannot be taken is refused here. */
export function withTimes(run: PendingRun): TimedRun {
  checkRunType(run.fields);
  return { ...run, start: instant(run.fields, "start_time"), end: instant(run.fields, "end_time") };
}

/** Thread ids are indexed: longer ones would not fit an index row. */
const MAX_THREAD_ID = 1_000;

/** The conversation thread a run belongs to, from the metadata keys clients use for it. */
export function threadIdOf(extra: unknown): string | null {
  const metadata = (extra as { metadata?: Record<string, unknown> } | null | undefined)?.metadata;
  const value = metadata?.thread_id ?? metadata?.session_id ?? metadata?.conversation_id;
  const id = typeof value === "string" || typeof value === "number" ? String(value) : null;
  if (id && id.length > MAX_THREAD_ID)
    throw badRequest(
      `A thread id (metadata.thread_id) is at most ${MAX_THREAD_ID.toLocaleString("en")} characters; this one has ${id.length.toLocaleString("en")}.`,
    );
  return id;
}

function errorText(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  return typeof error === "string" ? error : JSON.stringify(error);
}

function put(row: RunRow, key: keyof RunRow, value: unknown): void {
  if (value !== null && value !== undefined) (row as Record<string, unknown>)[key] = value;
}

/** The columns the request itself provides: what an update of a stored run may change. */
export function providedRow(run: TimedRun, placement: Placement | undefined, projectId: string | undefined): RunRow {
  const f = run.fields;
  const row: RunRow = { id: run.id };
  put(row, "project_id", projectId);
  if (placement) {
    Object.assign(row, {
      trace_id: placement.traceId,
      parent_run_id: placement.parentRunId,
      dotted_order: placement.dottedOrder,
      is_root: placement.isRoot,
      placement_pending: placement.pending,
    });
  }
  put(row, "name", f.name);
  put(row, "run_type", f.run_type);
  put(row, "start_time", run.start === null ? null : formatMicros(run.start));
  put(row, "end_time", run.end === null ? null : formatMicros(run.end));
  put(row, "inputs", f.inputs);
  put(row, "outputs", f.outputs);
  put(row, "input_preview", previewOf(f.inputs, "input"));
  put(row, "output_preview", previewOf(f.outputs, "output"));
  put(row, "error", errorText(f.error));
  put(row, "extra", f.extra);
  put(row, "events", f.events);
  put(row, "tags", f.tags);
  put(row, "serialized", f.serialized);
  put(row, "reference_example_id", f.reference_example_id);
  put(row, "thread_id", threadIdOf(f.extra));
  return row;
}

export function derivedColumns(d: LlmDerived): Partial<RunRow> {
  return {
    model: d.model,
    provider: d.provider,
    prompt_tokens: d.prompt_tokens,
    completion_tokens: d.completion_tokens,
    total_tokens: d.total_tokens,
    tokens_estimated: d.tokens_estimated,
    prompt_cost: d.prompt_cost,
    completion_cost: d.completion_cost,
    total_cost: d.total_cost,
    usage_details: d.usage_details,
    first_token_time: d.first_token_time ? formatMicros(BigInt(d.first_token_time.getTime()) * 1000n) : null,
    diagnostics: d.diagnostics,
  };
}

/**
 * A complete row for a run not stored yet: what the request says, defaults for the rest, derived
 * columns. A patch that arrives before its post is stored as a provisional root until the post says more.
 */
export function newRow(
  run: TimedRun,
  provided: RunRow,
  placement: Placement | undefined,
  defaultProjectId: string,
  prices: readonly PriceEntry[] = [],
): RunRow {
  const start = run.start ?? run.end ?? BigInt(Date.now()) * 1000n;
  const place = placement ?? {
    traceId: run.fields.trace_id ?? run.id,
    parentRunId: null,
    dottedOrder: `${dottedStamp(start)}${run.id}`,
    isRoot: true,
    pending: false,
  };
  const f = run.fields;
  const derived = deriveLlm(
    {
      run_type: f.run_type ?? "chain",
      inputs: f.inputs,
      outputs: f.outputs,
      extra: f.extra,
      events: f.events,
      start_time: new Date(Number(start / 1000n)),
      end_time: run.end === null ? null : new Date(Number(run.end / 1000n)),
    },
    prices,
  );
  return {
    project_id: defaultProjectId,
    name: "Unnamed run",
    run_type: "chain",
    tags: [],
    trace_id: place.traceId,
    parent_run_id: place.parentRunId,
    dotted_order: place.dottedOrder,
    is_root: place.isRoot,
    placement_pending: place.pending,
    ...provided,
    start_time: formatMicros(start),
    ...derivedColumns(derived),
  };
}
