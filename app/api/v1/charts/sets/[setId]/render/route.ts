import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartSetRender } from "@/server/charts/schema";
import { renderChartSet } from "@/server/charts/sets";

export const POST = route<"read", typeof chartSetRender, undefined, { setId: string }>({
  access: "read",
  body: chartSetRender,
  handler: ({ ctx, body, params }) => renderChartSet(ctx.sql, ctx.workspaceId, params.setId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
