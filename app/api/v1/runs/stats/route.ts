import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runSelection } from "@/server/runs/schema";
import { runStats } from "@/server/runs/stats";

export const POST = route({
  access: "read",
  replica: true,
  body: runSelection,
  handler: ({ ctx, body }) => runStats(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
