import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartQueryFromWire, chartRequest } from "@/server/charts/schema";
import { projectChartSeries, wireChart } from "@/server/charts/series";

export const POST = route({
  access: "read",
  params: idParams("sessionId"),
  replica: true,
  body: chartRequest,
  response: wireChart,
  handler: ({ ctx, body, params }) => projectChartSeries(ctx.sql, ctx.workspaceId, params.sessionId, chartQueryFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
