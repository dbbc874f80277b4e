import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runSelection, selectionFromWire } from "@/server/runs/schema";
import { runStats, wireRunStats } from "@/server/runs/stats";

export const POST = route({
  access: "read",
  replica: true,
  body: runSelection,
  response: wireRunStats,
  handler: ({ ctx, body }) => runStats(ctx.sql, ctx.workspaceId, selectionFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
