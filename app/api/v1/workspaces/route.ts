import { methodNotAllowed } from "@/server/http/not-found";
import { createWorkspaceFor, listWorkspaces, resolveCaller } from "@/server/auth/caller";
import { workspaceCreate } from "@/server/auth/schema";
import { reply, route } from "@/server/http/route";

/** A signed-in user's workspaces (also with none yet); an API key's one workspace. */
export const GET = route({
  access: "public",
  handler: async ({ ctx, request }) => listWorkspaces(ctx.sql, await resolveCaller(request, ctx.sql)),
});

export const POST = route({
  access: "public",
  body: workspaceCreate,
  handler: async ({ ctx, body, request }) =>
    reply(201, await createWorkspaceFor(ctx.sql, await resolveCaller(request, ctx.sql), body.name)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
