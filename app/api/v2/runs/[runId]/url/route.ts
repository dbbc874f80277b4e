import { z } from "zod";
import { idParams, uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runUrl } from "@/server/runs/query-v2";

/** Where the run is seen in the web UI (`client.runs.getURL`). */
export const GET = route({
  access: "read",
  params: idParams("runId"),
  query: z.looseObject({ project_id: uuid, trace_id: uuid }),
  response: z.object({ url: z.string() }),
  handler: ({ ctx, params, query }) => runUrl(ctx.workspaceId, params.runId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
