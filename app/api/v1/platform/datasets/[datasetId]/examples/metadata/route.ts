import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { metadataOperations, wireWriteResult } from "@/server/datasets/schema";
import { applyMetadataOperations } from "@/server/datasets/splits";

/** Bulk array_add / array_remove on example metadata (the JS client's updateDatasetSplits). */
export const PATCH = route({
  access: "write",
  body: metadataOperations,
  response: wireWriteResult,
  handler: ({ ctx, body, params }) => applyMetadataOperations(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const { GET, POST, PUT, DELETE } = methodNotAllowed("PATCH");
