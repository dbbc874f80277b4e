import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { addRuns } from "@/server/datasets/schema";
import { addRunsToDataset } from "@/server/datasets/runs";

/** Copies runs (inputs, outputs, attachments) into new examples that point back with source_run_id. */
export const POST = route({
  access: "write",
  body: addRuns,
  handler: ({ ctx, body, params }) => addRunsToDataset(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
