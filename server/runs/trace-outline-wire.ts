/**
 * The trace view's outline on the wire and its decoding, shared by the server and the browser (no
 * imports): a trace of 100,000 runs is one JSON text of small tuples, which tRPC passes through as a
 * single string (superjson walks strings in O(1), 100,000 objects in seconds) and the page parses
 * once. Inputs and outputs are not in it: the run detail reads the selected run.
 */

/** What the trace tree and waterfall show of each run (the run detail reads the rest). */
export interface OutlineRun {
  id: string;
  /** The parent's index in the outline, or -1 for a root (or a run whose parent is not loaded). */
  parent: number;
  parent_run_id: string | null;
  name: string;
  run_type: string;
  status: string;
  /** Milliseconds from the trace's earliest start. */
  start_ms: number;
  end_ms: number | null;
  /** Seconds. */
  latency: number | null;
  /** The first characters of the error (the run detail reads the whole). */
  error: string | null;
  total_tokens: number;
  total_cost: number | null;
  /** The model an LLM run called, when known. */
  model: string | null;
  /** Milliseconds from the run's start to its first streamed token. */
  first_token_ms: number | null;
}

/** One run as the SQL aggregates it: [id, parent id, name, type, status, start ms, end ms, latency ms, error, tokens, cost, model, first token ms]. */
export type OutlineTuple = [
  string,
  string | null,
  string,
  string,
  string,
  number,
  number | null,
  number | null,
  string | null,
  number | null,
  number | null,
  string | null,
  number | null,
];

export interface TraceOutlineWire {
  /** The earliest start among the runs (ISO 8601, microseconds): the origin of every `start_ms`. */
  start_time: string;
  /** JSON text of OutlineTuple[], in tree order (a parent before its children, siblings by start). */
  runs: string;
  /** True when the trace has more runs than the outline's limit and only the first ones came back. */
  truncated: boolean;
}

export interface TraceOutline {
  start_time: string;
  runs: OutlineRun[];
  truncated: boolean;
}

export function decodeTraceOutline(wire: TraceOutlineWire): TraceOutline {
  const tuples = JSON.parse(wire.runs) as OutlineTuple[];
  const runs: OutlineRun[] = new Array(tuples.length);
  // Parents are resolved here, not by a self-join in the query: a parent comes before its children.
  const index = new Map<string, number>();
  for (let i = 0; i < tuples.length; i++) {
    const [id, parentId, name, runType, status, start, end, latencyMs, error, tokens, cost, model, firstTokenMs] = tuples[i];
    index.set(id, i);
    runs[i] = {
      id,
      parent: parentId === null ? -1 : (index.get(parentId) ?? -1),
      parent_run_id: parentId,
      name,
      run_type: runType,
      status,
      start_ms: start,
      end_ms: end,
      latency: latencyMs === null ? null : latencyMs / 1000,
      error,
      total_tokens: tokens ?? 0,
      total_cost: cost,
      model,
      first_token_ms: firstTokenMs === null ? null : Math.max(0, firstTokenMs),
    };
  }
  return { start_time: wire.start_time, runs, truncated: wire.truncated };
}
