import { methodNotAllowed } from "@/server/http/not-found";
import { reply, route } from "@/server/http/route";
import { connectionCreate, createConnection, listConnections } from "@/server/models/connections";

/** The workspace's model connections (keys and header values never shown), then the deployment's default. */
export const GET = route({
  access: "read",
  handler: ({ ctx }) => listConnections(ctx.sql, ctx.workspaceId),
});

export const POST = route({
  access: "admin",
  body: connectionCreate,
  handler: async ({ ctx, body }) => reply(201, await createConnection(ctx.sql, ctx.workspaceId, body)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
