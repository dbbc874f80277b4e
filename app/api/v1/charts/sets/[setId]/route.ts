import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { chartSetUpdate } from "@/server/charts/schema";
import { deleteChartSet, readChartSet, updateChartSet, wireChartSet } from "@/server/charts/sets";
import { idParams } from "@/server/core/uuid";

const params = idParams("setId");

export const GET = route({
  access: "read",
  params,
  response: wireChartSet,
  handler: ({ ctx, params }) => readChartSet(ctx.sql, ctx.workspaceId, params.setId),
});

export const PATCH = route({
  access: "write",
  body: chartSetUpdate,
  params,
  response: wireChartSet,
  handler: ({ ctx, body, params }) => updateChartSet(ctx.sql, ctx.workspaceId, params.setId, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "write",
  params,
  handler: ({ ctx, params }) => deleteChartSet(ctx.sql, ctx.workspaceId, params.setId),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
