import { wireAlertSeries } from "@/server/alerts/schema";
import { alertSeries } from "@/server/alerts/series";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

export const GET = route({
  access: "read",
  replica: true,
  params: idParams("alertId"),
  response: wireAlertSeries,
  handler: ({ ctx, params }) => alertSeries(ctx.sql, ctx.workspaceId, params.alertId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
