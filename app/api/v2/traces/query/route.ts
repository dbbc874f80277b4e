import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queryTraces, traceQuery } from "@/server/runs/traces-v2";

/** A page of a project's traces, each its root run and totals (`client.traces.query`). */
export const POST = route({
  access: "read",
  body: traceQuery,
  handler: ({ ctx, body }) => queryTraces(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
