import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { viewUpdate, wireView } from "@/server/views/schema";
import { deleteView, readView, updateView } from "@/server/views/service";

const params = idParams("viewId");

export const GET = route({
  access: "read",
  params,
  response: wireView,
  handler: ({ ctx, params }) => readView(ctx.sql, ctx.workspaceId, ctx.identity, params.viewId),
});

/** Who may change which view is decided in the service (private views: their owner; shared: members). */
export const PATCH = route({
  access: "read",
  params,
  body: viewUpdate,
  response: wireView,
  handler: ({ ctx, params, body }) => updateView(ctx.sql, ctx.workspaceId, ctx.identity, params.viewId, body),
});

export const DELETE = route({
  access: "read",
  params,
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await deleteView(ctx.sql, ctx.workspaceId, ctx.identity, params.viewId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
