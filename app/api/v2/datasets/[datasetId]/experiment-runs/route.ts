import { idParams } from "@/server/core/uuid";
import {
  experimentRunsFromWire,
  experimentRunsQuery,
  queryExperimentRuns,
  wireExampleWithRuns,
} from "@/server/experiments/experiment-runs";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { cursorPage } from "@/server/core/offset-cursor";

/** The dataset's examples with their runs in the given experiments (`datasets.experimentRuns.query`). */
export const POST = route({
  access: "read",
  params: idParams("datasetId"),
  body: experimentRunsQuery,
  response: cursorPage(wireExampleWithRuns),
  handler: ({ ctx, params, body }) => queryExperimentRuns(ctx.sql, ctx.workspaceId, params.datasetId, experimentRunsFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
