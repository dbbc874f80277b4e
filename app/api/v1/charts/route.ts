import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartQueryFromWire, chartRequest } from "@/server/charts/schema";
import { chartSeries, wireChart } from "@/server/charts/series";

export const POST = route({
  access: "read",
  replica: true,
  body: chartRequest,
  response: wireChart,
  handler: ({ ctx, body }) => chartSeries(ctx.sql, ctx.workspaceId, chartQueryFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
