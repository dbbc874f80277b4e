import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartRequest } from "@/server/charts/schema";
import { projectChartSeries } from "@/server/charts/series";

export const POST = route<"read", typeof chartRequest, undefined, { sessionId: string }>({
  access: "read",
  replica: true,
  body: chartRequest,
  handler: ({ ctx, body, params }) => projectChartSeries(ctx.sql, ctx.workspaceId, params.sessionId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
