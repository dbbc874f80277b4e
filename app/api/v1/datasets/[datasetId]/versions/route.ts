import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { versionListQuery, wireVersion } from "@/server/datasets/schema";
import { listVersions } from "@/server/datasets/versions";

export const GET = route({
  access: "read",
  query: versionListQuery,
  response: z.array(wireVersion),
  handler: ({ ctx, query, params }) => listVersions(ctx.sql, ctx.workspaceId, params.datasetId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
