import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sharedRunTree, wirePublicRunTree } from "@/server/sharing/public-runs";
import { resolveShare } from "@/server/sharing/service";

/** The shared run with all the runs below it nested in `child_runs`. No key needed. */
export const GET = route({
  access: "public",
  response: wirePublicRunTree,
  handler: async ({ ctx, params }) => {
    const shared = await resolveShare(ctx.sql, params.token, "run");
    return sharedRunTree(ctx.sql, shared.workspaceId, shared.resourceId);
  },
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
