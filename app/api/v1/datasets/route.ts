import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { z } from "zod";
import { datasetCreate, datasetFilterFromWire, datasetListQuery, wireDataset } from "@/server/datasets/schema";
import { createDataset, listDatasets } from "@/server/datasets/service";

export const GET = route({
  access: "read",
  query: datasetListQuery,
  response: z.array(wireDataset),
  handler: ({ ctx, query }) => listDatasets(ctx.sql, ctx.workspaceId, datasetFilterFromWire(query)),
});

export const POST = route({
  access: "write",
  body: datasetCreate,
  response: wireDataset,
  handler: ({ ctx, body }) => createDataset(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
