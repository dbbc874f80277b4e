import { z } from "zod";
import { uuid } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { DEFAULT_CONNECTION, testConnection, wireConnectionTest } from "@/server/models/connections";

/** One tiny call through the connection ("default": the deployment's). */
export const POST = route({
  access: "write",
  params: z.object({ connectionId: z.union([uuid, z.literal(DEFAULT_CONNECTION)]) }),
  response: wireConnectionTest,
  handler: ({ ctx, params }) => testConnection(ctx.sql, ctx.workspaceId, params.connectionId),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
