import type { Sql } from "../db/client";
import type { RuleRun } from "./actions";

export async function addRunToDataset(db: Sql, workspaceId: string, datasetId: string, run: RuleRun): Promise<string> {
  void db; void workspaceId; void datasetId; void run;
  throw new Error("adding runs to a dataset is not available yet");
}
