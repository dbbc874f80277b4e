import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runGroupBody } from "@/server/runs/schema";
import { groupThreads } from "@/server/runs/threads";

export const POST = route({
  access: "read",
  replica: true,
  body: runGroupBody,
  handler: ({ ctx, body }) => groupThreads(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
