import type { Sql } from "../db/client";
import { badRequest } from "../core/errors";
import { parseDottedOrder } from "./dotted-order";
import { dottedStamp } from "../core/time";
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

  const visiting = new Set<string>();
  const place = (run: Unplaced): Placement => {
    const done = placed.get(run.id);
    if (done) return done;
    const own = `${dottedStamp(run.startMicros)}${run.id}`;
    let result: Placement;
    if (!run.parentRunId) {
      result = { traceId: run.traceId ?? run.id, parentRunId: null, dottedOrder: own, isRoot: true, pending: false };
    } else {
      const inRequest = byId.get(run.parentRunId);
      if (inRequest && visiting.has(inRequest.id)) throw badRequest(`Run ${run.id}: parent_run_id forms a cycle.`);
      visiting.add(run.id);
      const parent = inRequest ? place(inRequest) : stored.get(run.parentRunId);
      visiting.delete(run.id);
      if (parent) {
        const traceId = "traceId" in parent ? parent.traceId : parent.trace_id;
        const dotted = "dottedOrder" in parent ? parent.dottedOrder : parent.dotted_order;
        const pending = "pending" in parent ? parent.pending : parent.placement_pending;
        result = { traceId, parentRunId: run.parentRunId, dottedOrder: `${dotted}.${own}`, isRoot: false, pending };
      } else {
        result = { traceId: run.traceId ?? run.parentRunId, parentRunId: run.parentRunId, dottedOrder: own, isRoot: false, pending: true };
      }
    }
    placed.set(run.id, result);
    return result;
  };
  for (const run of runs) place(run);
  return placed;
}
