import { z } from "zod";
import { forbidden } from "@/server/core/errors";
import { idParams } from "@/server/core/uuid";
import { addRuns } from "@/server/datasets/schema";
import { addRunsToDataset } from "@/server/datasets/runs";
import { datasetRunsQuery, readDatasetRuns } from "@/server/experiments/experiment-runs";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/**
 * Two uses share this path. With `session_ids` (LangSmith's read): the dataset's examples with
 * their runs in those experiments. With `run_ids`: copies runs (inputs, outputs, attachments) into
 * new examples that point back with source_run_id, which needs a member's write access.
 */
export const POST = route({
  access: "read",
  params: idParams("datasetId"),
  body: z.union([datasetRunsQuery, addRuns]),
  handler: ({ ctx, body, params }) => {
    const copy = addRuns.safeParse(body);
    if (!copy.success) return readDatasetRuns(ctx.sql, ctx.workspaceId, params.datasetId, datasetRunsQuery.parse(body));
    if (ctx.identity.role === "viewer") throw forbidden("Your role in this workspace is viewer: it can read but not change data.");
    return addRunsToDataset(ctx.sql, ctx.workspaceId, params.datasetId, copy.data);
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
