import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { dashboardParams, projectDashboard, wireDashboard } from "@/server/charts/dashboard";

/** The project's prebuilt dashboard (`client.sessions.dashboard`): its charts over the range asked for. */
export const POST = route({
  access: "read",
  params: idParams("sessionId"),
  replica: true,
  body: dashboardParams,
  response: wireDashboard,
  handler: ({ ctx, body, params }) => projectDashboard(ctx.sql, ctx.workspaceId, params.sessionId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
