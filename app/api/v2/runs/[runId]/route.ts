import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { readRunV2, runRetrieveV2 } from "@/server/runs/query-v2";
import { wireRunV2 } from "@/server/runs/v2";

/** One run of a project in the v2 shape (`client.runs.retrieve`). */
export const GET = route({
  access: "read",
  params: idParams("runId"),
  query: runRetrieveV2,
  response: wireRunV2,
  handler: ({ ctx, params, query }) => readRunV2(ctx.sql, ctx.workspaceId, params.runId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
