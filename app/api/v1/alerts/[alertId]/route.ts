import { z } from "zod";
import { alertUpdate, wireAlert } from "@/server/alerts/schema";
import { deleteAlert, readAlert, updateAlert } from "@/server/alerts/service";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

const params = idParams("alertId");

export const GET = route({
  access: "read",
  params,
  response: wireAlert,
  handler: ({ ctx, params }) => readAlert(ctx.sql, ctx.workspaceId, params.alertId),
});

export const PATCH = route({
  access: "write",
  params,
  body: alertUpdate,
  response: wireAlert,
  handler: ({ ctx, params, body }) => updateAlert(ctx.sql, ctx.workspaceId, params.alertId, body),
});

export const DELETE = route({
  access: "write",
  params,
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await deleteAlert(ctx.sql, ctx.workspaceId, params.alertId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
