import type { Sql } from "../db/client";
import { listExamples } from "../datasets/examples";
import type { WireDataset, WireExample } from "../datasets/schema";
import type { ExampleFilter } from "../datasets/schema";
import { readDataset } from "../datasets/service";
import { resolveShare } from "./service";

/** GET /public/{token}/datasets: the shared dataset, read-only, no key. */
export async function sharedDataset(db: Sql, token: string): Promise<WireDataset> {
  const shared = await resolveShare(db, token, "dataset");
  return readDataset(db, shared.workspaceId, shared.resourceId);
}

/** GET /public/{token}/examples: the shared dataset's examples; ids, splits, as_of and paging apply. */
export async function sharedExamples(db: Sql, token: string, q: ExampleFilter): Promise<WireExample[]> {
  const shared = await resolveShare(db, token, "dataset");
  return listExamples(db, shared.workspaceId, { ...q, datasetId: shared.resourceId });
}

/** Every current example of a dataset, for a download: pages through the listing. */
export async function allExamples(db: Sql, workspaceId: string, datasetId: string): Promise<WireExample[]> {
  const out: WireExample[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await listExamples(db, workspaceId, { datasetId, offset, limit: 1000 });
    out.push(...page);
    if (page.length < 1000) return out;
  }
}
