import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { diffQuery, wireVersionDiff } from "@/server/datasets/schema";
import { diffVersions } from "@/server/datasets/versions";

export const GET = route({
  access: "read",
  query: diffQuery,
  response: wireVersionDiff,
  handler: ({ ctx, query, params }) => diffVersions(ctx.sql, ctx.workspaceId, params.datasetId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
