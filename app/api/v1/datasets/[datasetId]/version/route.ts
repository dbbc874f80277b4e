import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { versionQuery, wireVersion } from "@/server/datasets/schema";
import { readVersion } from "@/server/datasets/versions";

export const GET = route({
  access: "read",
  query: versionQuery,
  response: wireVersion,
  handler: ({ ctx, query, params }) => readVersion(ctx.sql, ctx.workspaceId, params.datasetId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
