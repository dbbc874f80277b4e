import type { Sql } from "../db/client";
import { inWorkspace, sql } from "../db/sql";
import { MAX_DOTTED_ORDER_LENGTH } from "../core/trace-depth";

/**
 * Where stored runs sit in their traces, for placing the runs of an ingest request under them
 * (`ingest/placement.ts`; one statement, inside ingest's transaction).
 */
export async function storedPlacements(
  db: Sql,
  workspaceId: string,
  ids: string[],
): Promise<{ id: string; trace_id: string; dotted_order: string; placement_pending: boolean }[]> {
  return db.query<{ id: string; trace_id: string; dotted_order: string; placement_pending: boolean }>(sql`
      SELECT id, trace_id, dotted_order, placement_pending FROM runs
      WHERE id = ANY(${ids}::uuid[]) AND ${inWorkspace(workspaceId)}`);
}

/**
 * Completes pending runs whose parents are now placed, level by level. A run that would nest deeper
 * than a trace may (it was stored before its parent, so it could not be refused) stays pending: kept,
 * found by its id and filters, outside its parent's tree.
 */
export async function repairPendingPlacements(db: Sql, workspaceId: string): Promise<number> {
  let total = 0;
  for (let depth = 0; depth < 100; depth++) {
    const rows = await db.query(sql`
      UPDATE runs AS child SET
        dotted_order = parent.dotted_order || '.' || split_part(child.dotted_order, '.', array_length(string_to_array(child.dotted_order, '.'), 1)),
        trace_id = parent.trace_id,
        placement_pending = false,
        updated_at = now()
      FROM runs AS parent
      WHERE child.workspace_id = ${workspaceId} AND child.placement_pending
        AND parent.workspace_id = ${workspaceId} AND parent.id = child.parent_run_id AND NOT parent.placement_pending
        AND length(parent.dotted_order) < ${MAX_DOTTED_ORDER_LENGTH - 58}
      RETURNING child.id`);
    total += rows.length;
    if (rows.length === 0) break;
  }
  return total;
}
