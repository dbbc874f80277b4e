import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runGroupBody, threadQueryFromWire } from "@/server/runs/schema";
import { groupThreads, threadPage } from "@/server/runs/threads";

export const POST = route({
  access: "read",
  replica: true,
  body: runGroupBody,
  response: threadPage,
  handler: ({ ctx, body }) => groupThreads(ctx.sql, ctx.workspaceId, threadQueryFromWire(body)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
