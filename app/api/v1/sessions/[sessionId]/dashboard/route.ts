import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { dashboardParams, projectDashboard } from "@/server/charts/dashboard";

/** The project's prebuilt dashboard (`client.sessions.dashboard`): its charts over the range asked for. */
export const POST = route<"read", typeof dashboardParams, undefined, { sessionId: string }>({
  access: "read",
  replica: true,
  body: dashboardParams,
  handler: ({ ctx, body, params }) => projectDashboard(ctx.sql, ctx.workspaceId, params.sessionId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
