import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { viewCreate, viewListQuery, wireView } from "@/server/views/schema";
import { createView, listViews } from "@/server/views/service";

/** The saved views the caller can use: the workspace's shared ones and their own, by name. */
export const GET = route({
  access: "read",
  query: viewListQuery,
  response: z.array(wireView),
  handler: ({ ctx, query }) => listViews(ctx.sql, ctx.workspaceId, ctx.identity, query.project_id),
});

/** Any member may call it: a viewer keeps private views; shared ones are checked in the service. */
export const POST = route({
  access: "read",
  body: viewCreate,
  response: wireView,
  status: 201,
  handler: ({ ctx, body }) => createView(ctx.sql, ctx.workspaceId, ctx.identity, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
