import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { traceRunsQuery, traceRunsV2 } from "@/server/runs/traces-v2";
import { wireRunV2 } from "@/server/runs/v2";

/** Every run of one trace (`client.traces.listRuns`). */
export const GET = route({
  access: "read",
  params: idParams("traceId"),
  query: traceRunsQuery,
  response: z.object({ items: z.array(wireRunV2) }),
  handler: ({ ctx, params, query }) => traceRunsV2(ctx.sql, ctx.workspaceId, params.traceId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
