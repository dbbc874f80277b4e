import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { connectionCreate, createConnection, listConnections, wireConnection } from "@/server/models/connections";

/** The workspace's model connections (keys and header values never shown), then the deployment's default. */
export const GET = route({
  access: "read",
  response: z.array(wireConnection),
  handler: ({ ctx }) => listConnections(ctx.sql, ctx.workspaceId),
});

export const POST = route({
  access: "admin",
  body: connectionCreate,
  status: 201,
  response: wireConnection,
  handler: ({ ctx, body }) => createConnection(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
