import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { datasetCreate, datasetListQuery } from "@/server/datasets/schema";
import { createDataset, listDatasets } from "@/server/datasets/service";

export const GET = route({
  access: "read",
  query: datasetListQuery,
  handler: ({ ctx, query }) => listDatasets(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "write",
  body: datasetCreate,
  handler: ({ ctx, body }) => createDataset(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
