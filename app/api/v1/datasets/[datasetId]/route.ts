import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { datasetUpdate, wireDataset, wireDatasetDeleted } from "@/server/datasets/schema";
import { deleteDataset, readDataset, updateDataset } from "@/server/datasets/service";

export const GET = route({
  access: "read",
  response: wireDataset,
  handler: ({ ctx, params }) => readDataset(ctx.sql, ctx.workspaceId, params.datasetId),
});

export const PATCH = route({
  access: "write",
  body: datasetUpdate,
  response: wireDataset,
  handler: ({ ctx, body, params }) => updateDataset(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const DELETE = route({
  access: "write",
  response: wireDatasetDeleted,
  handler: ({ ctx, params }) => deleteDataset(ctx.sql, ctx.workspaceId, params.datasetId),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
