import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { runGroupBody } from "@/server/runs/schema";
import { groupThreads, wireThread } from "@/server/runs/threads";

export const POST = route({
  access: "read",
  replica: true,
  body: runGroupBody,
  response: z.object({ groups: z.array(wireThread), total: z.number() }),
  handler: ({ ctx, body }) => groupThreads(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
