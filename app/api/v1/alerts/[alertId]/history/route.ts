import { z } from "zod";
import { historyQuery, wireAlertEvent } from "@/server/alerts/schema";
import { alertHistory } from "@/server/alerts/service";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

export const GET = route({
  access: "read",
  params: idParams("alertId"),
  query: historyQuery,
  response: z.array(wireAlertEvent),
  handler: ({ ctx, params, query }) => alertHistory(ctx.sql, ctx.workspaceId, params.alertId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
