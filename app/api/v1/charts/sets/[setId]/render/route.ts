import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartSetRender } from "@/server/charts/schema";
import { renderChartSet, wireRenderedChartSet } from "@/server/charts/sets";
import { idParams } from "@/server/core/uuid";

export const POST = route({
  access: "read",
  replica: true,
  body: chartSetRender,
  params: idParams("setId"),
  response: wireRenderedChartSet,
  handler: ({ ctx, body, params }) => renderChartSet(ctx.sql, ctx.workspaceId, params.setId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
