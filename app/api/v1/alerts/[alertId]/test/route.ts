import { wireAlertTest } from "@/server/alerts/schema";
import { testAlert } from "@/server/alerts/service";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

export const POST = route({
  access: "write",
  params: idParams("alertId"),
  response: wireAlertTest,
  handler: ({ ctx, params }) => testAlert(ctx.sql, ctx.workspaceId, params.alertId),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
