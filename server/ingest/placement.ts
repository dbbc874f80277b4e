import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { parseDottedOrder } from "./dotted-order";
import { dottedStamp } from "../core/time";
import { dottedDepth, traceTooDeep } from "../core/trace-depth";
import { storedPlacements } from "../runs/placement";

export interface Placement {
  traceId: string;
  parentRunId: string | null;
  dottedOrder: string;
  isRoot: boolean;
  pending: boolean;
}

export interface Unplaced {
  id: string;
  traceId?: string | null;
  parentRunId?: string | null;
  dottedOrder?: string | null;
  startMicros: bigint;
}

/** Checks a given dotted_order against the given trace_id and parent_run_id. */
function fromDottedOrder(run: Unplaced & { dottedOrder: string }): Placement {
  const segments = parseDottedOrder(run.dottedOrder, run.id);
  const traceId = segments[0].id;
  const parent = segments.length > 1 ? segments[segments.length - 2].id : null;
  if (run.traceId && run.traceId.toLowerCase() !== traceId) {
    throw badRequest(`Run ${run.id}: trace_id ${run.traceId} does not match its dotted_order, which starts with ${traceId}.`);
  }
  if (run.parentRunId && run.parentRunId.toLowerCase() !== parent) {
    throw badRequest(
      `Run ${run.id}: parent_run_id ${run.parentRunId} does not match its dotted_order, whose parent is ${parent ?? "none (a root)"}.`,
    );
  }
  return { traceId, parentRunId: parent, dottedOrder: run.dottedOrder, isRoot: parent === null, pending: false };
}

/**
 * Places runs in their traces. Runs without a dotted_order get one from their parent, found in the
 * same request or already stored; a run whose parent is not known yet is kept with a provisional
 * order and marked pending, and `repairPendingPlacements` (runs/placement.ts) completes it when the parent arrives.
 */
export async function placeRuns(db: Sql, workspaceId: string, runs: Unplaced[]): Promise<Map<string, Placement>> {
  const placed = new Map<string, Placement>();
  const byId = new Map(runs.map((r) => [r.id, r]));
  for (const run of runs) if (run.dottedOrder) placed.set(run.id, fromDottedOrder(run as Unplaced & { dottedOrder: string }));

  const missingParents = [
    ...new Set(runs.filter((r) => !r.dottedOrder && r.parentRunId && !byId.has(r.parentRunId)).map((r) => r.parentRunId as string)),
  ];
  const stored = new Map<string, { trace_id: string; dotted_order: string; placement_pending: boolean }>();
  if (missingParents.length > 0) {
    for (const row of await storedPlacements(db, workspaceId, missingParents)) stored.set(row.id, row);
  }

  const parentOf = (id: string): { traceId: string; dotted: string; pending: boolean } | undefined => {
    const inRequest = placed.get(id);
    if (inRequest) return { traceId: inRequest.traceId, dotted: inRequest.dottedOrder, pending: inRequest.pending };
    const row = stored.get(id);
    return row && { traceId: row.trace_id, dotted: row.dotted_order, pending: row.placement_pending };
  };
  /** A run whose parent is placed (in this request or stored), or that has none. */
  const placeUnder = (run: Unplaced): Placement => {
    const own = `${dottedStamp(run.startMicros)}${run.id}`;
    if (!run.parentRunId) return { traceId: run.traceId ?? run.id, parentRunId: null, dottedOrder: own, isRoot: true, pending: false };
    const parent = parentOf(run.parentRunId);
    if (!parent) {
      return { traceId: run.traceId ?? run.parentRunId, parentRunId: run.parentRunId, dottedOrder: own, isRoot: false, pending: true };
    }
    const deep = traceTooDeep(dottedDepth(parent.dotted) + 1);
    if (deep) throw badRequest(`Run ${run.id}: ${deep}.`);
    return {
      traceId: parent.traceId,
      parentRunId: run.parentRunId,
      dottedOrder: `${parent.dotted}.${own}`,
      isRoot: false,
      pending: parent.pending,
    };
  };
  // The chain of runs not placed yet, from this one up to a placed run, a stored parent or a root,
  // placed top-down: a loop, not recursion, since a chain may be as deep as the trace.
  const place = (start: Unplaced): void => {
    const chain: Unplaced[] = [];
    const onChain = new Set<string>();
    for (let run: Unplaced | undefined = start; run && !placed.has(run.id); run = run.parentRunId ? byId.get(run.parentRunId) : undefined) {
      if (onChain.has(run.id)) throw badRequest(`Run ${chain[chain.length - 1].id}: parent_run_id forms a cycle.`);
      onChain.add(run.id);
      chain.push(run);
    }
    for (let i = chain.length - 1; i >= 0; i--) placed.set(chain[i].id, placeUnder(chain[i]));
  };
  for (const run of runs) place(run);
  return placed;
}
