import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { tagUpdate, wireVersion } from "@/server/datasets/schema";
import { setTag } from "@/server/datasets/versions";

export const PUT = route({
  access: "write",
  body: tagUpdate,
  response: wireVersion,
  handler: ({ ctx, body, params }) => setTag(ctx.sql, ctx.workspaceId, params.datasetId, body),
});

export const { GET, POST, PATCH, DELETE } = methodNotAllowed("PUT");
