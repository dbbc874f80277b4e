import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { datasetListV2, listDatasetsV2 } from "@/server/datasets/v2";
import { cursorPage } from "@/server/core/offset-cursor";
import { wireDataset } from "@/server/datasets/schema";

/** The workspace's datasets, a page at a time (`client.datasets.listV2`). */
export const GET = route({
  access: "read",
  query: datasetListV2,
  response: cursorPage(wireDataset),
  handler: ({ ctx, query }) => listDatasetsV2(ctx.sql, ctx.workspaceId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
