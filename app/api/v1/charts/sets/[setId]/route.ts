import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { chartSetUpdate } from "@/server/charts/schema";
import { deleteChartSet, readChartSet, updateChartSet } from "@/server/charts/sets";

type Params = { setId: string };

export const GET = route<"read", undefined, undefined, Params>({
  access: "read",
  handler: ({ ctx, params }) => readChartSet(ctx.sql, ctx.workspaceId, params.setId),
});

export const PATCH = route<"write", typeof chartSetUpdate, undefined, Params>({
  access: "write",
  body: chartSetUpdate,
  handler: ({ ctx, body, params }) => updateChartSet(ctx.sql, ctx.workspaceId, params.setId, body),
});

export const DELETE = route<"write", undefined, undefined, Params>({
  access: "write",
  handler: ({ ctx, params }) => deleteChartSet(ctx.sql, ctx.workspaceId, params.setId),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
