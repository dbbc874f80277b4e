import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queryRuns, runPage } from "@/server/runs/query";
import { runQueryBody, runQueryFromWire } from "@/server/runs/schema";

export const POST = route({
  access: "read",
  replica: true,
  body: runQueryBody,
  response: runPage,
  handler: ({ ctx, body }) => queryRuns(ctx.sql, ctx.workspaceId, runQueryFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
