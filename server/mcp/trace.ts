import { formatMicros, parseInstant } from "../core/time";
import { countedTraceOutline } from "../runs/trace-outline";
import { decodeTraceOutline, type OutlineRun } from "../runs/trace-outline-wire";
import { runPayloadHeads, type PayloadHead } from "../runs/payload-heads";
import { Budget, FIELD_CHARS, clip, cutText } from "./clip";
import type { ToolContext } from "./context";

/** Runs whose inputs and outputs one query reads; reading stops once the answer's budget is spent. */
const PAYLOAD_BATCH = 50;

type Node = Record<string, unknown> & { children: Node[] };

/**
 * `get_trace`: the trace's outline (its first `maxRuns` runs in tree order, without payloads) as a
 * tree, with each run's inputs and outputs cut to `maxChars` in the database: a trace of 100,000
 * runs reads the light columns of its runs and the payloads of the runs shown, never whole runs.
 */
export async function traceTree(ctx: ToolContext, traceId: string, maxRuns = 200, maxChars = FIELD_CHARS) {
  const { outline, total } = await countedTraceOutline(ctx.sql, ctx.workspaceId, traceId, maxRuns);
  const { runs } = decodeTraceOutline(outline);
  const origin = parseInstant(outline.start_time)!;
  const at = (ms: number | null) => (ms === null ? null : formatMicros(origin + BigInt(Math.round(ms * 1000))));
  const budget = new Budget();
  const shown = (payload: PayloadHead | undefined) =>
    payload === undefined
      ? undefined
      : "whole" in payload
        ? budget.take(payload.whole, maxChars)
        : budget.spend(cutText(payload.head, payload.chars));
  const nodes: Node[] = [];
  const roots: Node[] = [];
  const place = (run: OutlineRun, payloads: { inputs: PayloadHead; outputs: PayloadHead } | undefined) => {
    const node: Node = {
      id: run.id,
      parent_run_id: run.parent_run_id,
      name: run.name,
      run_type: run.run_type,
      status: run.status,
      start_time: at(run.start_ms),
      end_time: at(run.end_ms),
      latency: run.latency,
      error: clip(run.error, maxChars),
      total_tokens: run.total_tokens,
      total_cost: run.total_cost,
      model: run.model,
      first_token_ms: run.first_token_ms,
      inputs: shown(payloads?.inputs ?? { whole: null }),
      outputs: shown(payloads?.outputs ?? { whole: null }),
      children: [],
    };
    nodes.push(node);
    (run.parent >= 0 ? nodes[run.parent].children : roots).push(node);
  };
  for (let i = 0; i < runs.length; i += PAYLOAD_BATCH) {
    const batch = runs.slice(i, i + PAYLOAD_BATCH);
    const payloads = budget.spent
      ? new Map()
      : await runPayloadHeads(
          ctx.sql,
          ctx.workspaceId,
          batch.map((r) => r.id),
          maxChars,
        );
    for (const run of batch) place(run, payloads.get(run.id));
  }
  return {
    trace_id: traceId,
    run_count: total,
    truncated: outline.truncated,
    ...(budget.spent ? { note: "Answer size reached: later runs are listed without inputs and outputs." } : {}),
    runs: roots,
  };
}
