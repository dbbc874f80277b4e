import type { Sql } from "../../db/client";
import { badRequest } from "../../core/errors";
import { matchingRunIds, runsByIds } from "../../runs/lookup";
import { addRunsToQueue } from "./items";

/**
 * A pairwise queue's items from two experiments (LangSmith's "Add to pairwise annotation queue"):
 * each example's root run in the first (run A) beside that example's root run in the second
 * (run B), examples only one ran left out; experiments without examples are paired in start
 * order. At most `limit` pairs; pairs already in the queue keep their place.
 */
export async function pairExperiments(db: Sql, workspaceId: string, queueId: string, projectIds: string[], limit = 10_000) {
  if (projectIds.length !== 2) throw badRequest("A pairwise queue compares exactly two experiments: give two session_ids.");
  const [first, second] = await Promise.all(
    projectIds.map((p) => matchingRunIds(db, workspaceId, { projectIds: [p], isRoot: true }, limit)),
  );
  const rows = await runsByIds<{ id: string; reference_example_id: string | null }>(
    db,
    workspaceId,
    [...first, ...second],
    ["reference_example_id"],
  );
  const exampleOf = new Map(rows.map((r) => [r.id, r.reference_example_id]));
  let pairs: { run_id: string; paired_run_id: string }[];
  if (rows.some((r) => r.reference_example_id)) {
    const secondByExample = new Map<string, string>();
    for (const id of second) {
      const example = exampleOf.get(id);
      if (example && !secondByExample.has(example)) secondByExample.set(example, id);
    }
    pairs = first.flatMap((id) => {
      const other = secondByExample.get(exampleOf.get(id) ?? "");
      if (!other) return [];
      secondByExample.delete(exampleOf.get(id)!);
      return [{ run_id: id, paired_run_id: other }];
    });
  } else {
    pairs = first.slice(0, second.length).map((id, i) => ({ run_id: id, paired_run_id: second[i] }));
  }
  return addRunsToQueue(db, workspaceId, queueId, pairs);
}
