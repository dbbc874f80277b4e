import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartSetCreate } from "@/server/charts/schema";
import { createChartSet, listChartSets, wireChartSet } from "@/server/charts/sets";

export const GET = route({
  access: "read",
  query: z.looseObject({ project_id: z.string().optional() }),
  response: z.array(wireChartSet),
  handler: ({ ctx, query }) => listChartSets(ctx.sql, ctx.workspaceId, query.project_id),
});

export const POST = route({
  access: "write",
  body: chartSetCreate,
  response: wireChartSet,
  handler: ({ ctx, body }) => createChartSet(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
