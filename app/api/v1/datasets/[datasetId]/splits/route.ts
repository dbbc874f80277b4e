import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { splitsQuery, splitsUpdate } from "@/server/datasets/schema";
import { listSplits, updateSplits } from "@/server/datasets/splits";

export const GET = route({
  access: "read",
  query: splitsQuery,
  response: z.array(z.string()),
  handler: ({ ctx, query, params }) => listSplits(ctx.sql, ctx.workspaceId, params.datasetId, query.as_of),
});

export const PUT = route({
  access: "write",
  body: splitsUpdate,
  response: z.array(z.string()),
  handler: ({ ctx, body, params }) => updateSplits(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const { POST, PATCH, DELETE } = methodNotAllowed("GET", "PUT");
