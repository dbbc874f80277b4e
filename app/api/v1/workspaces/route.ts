import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { createWorkspaceFor, listWorkspaces, resolveCaller } from "@/server/auth/caller";
import { workspaceCreate } from "@/server/auth/schema";
import { route } from "@/server/http/route";
import { wireWorkspace } from "@/server/auth/wire";

/** A signed-in user's workspaces (also with none yet); an API key's one workspace. */
export const GET = route({
  access: "public",
  response: z.array(wireWorkspace),
  handler: async ({ ctx, request }) => listWorkspaces(ctx.sql, await resolveCaller(request, ctx.sql)),
});

export const POST = route({
  access: "public",
  body: workspaceCreate,
  status: 201,
  response: wireWorkspace,
  handler: async ({ ctx, body, request }) => createWorkspaceFor(ctx.sql, await resolveCaller(request, ctx.sql), body.name),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
