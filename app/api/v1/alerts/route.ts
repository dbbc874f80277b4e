import { z } from "zod";
import { alertCreate, alertListQuery, wireAlert } from "@/server/alerts/schema";
import { createAlert, listAlerts } from "@/server/alerts/service";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

export const GET = route({
  access: "read",
  query: alertListQuery,
  response: z.array(wireAlert),
  handler: ({ ctx, query }) => listAlerts(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "write",
  body: alertCreate,
  response: wireAlert,
  status: 201,
  handler: ({ ctx, body }) => createAlert(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
