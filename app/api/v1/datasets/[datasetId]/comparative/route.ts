import { idParams } from "@/server/core/uuid";
import { listComparativeExperiments } from "@/server/experiments/pairwise";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/** A dataset's comparisons of experiments (pairwise), newest first, with their win rates. */
export const GET = route({
  access: "read",
  params: idParams("datasetId"),
  handler: ({ ctx, params }) => listComparativeExperiments(ctx.sql, ctx.workspaceId, params.datasetId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
