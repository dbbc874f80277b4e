import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { connectionUpdate, deleteConnection, updateConnection, wireConnection } from "@/server/models/connections";

const params = idParams("connectionId");

export const PATCH = route({
  access: "admin",
  params,
  body: connectionUpdate,
  response: wireConnection,
  handler: ({ ctx, params, body }) => updateConnection(ctx.sql, ctx.workspaceId, params.connectionId, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "admin",
  params,
  handler: ({ ctx, params }) => deleteConnection(ctx.sql, ctx.workspaceId, params.connectionId),
});

export const { GET, POST, PUT } = methodNotAllowed("PATCH", "DELETE");
