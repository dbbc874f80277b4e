import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { listComparativeExperiments, wirePairwiseSummary } from "@/server/experiments/pairwise";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/** A dataset's comparisons of experiments (pairwise), newest first, with their win rates. */
export const GET = route({
  access: "read",
  params: idParams("datasetId"),
  response: z.array(wirePairwiseSummary),
  handler: ({ ctx, params }) => listComparativeExperiments(ctx.sql, ctx.workspaceId, params.datasetId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
