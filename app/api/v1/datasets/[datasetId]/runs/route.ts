import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { addRuns } from "@/server/datasets/schema";
import { datasetRunsQuery, postDatasetRuns, wireDatasetRuns } from "@/server/experiments/experiment-runs";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/** LangSmith's read of examples with their runs (`session_ids`), or runs copied into examples (`run_ids`). */
export const POST = route({
  access: "read",
  params: idParams("datasetId"),
  body: z.union([datasetRunsQuery, addRuns]),
  response: wireDatasetRuns,
  handler: ({ ctx, body, params }) => postDatasetRuns(ctx.sql, ctx.identity, params.datasetId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
