import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { queryThreads, threadQuery } from "@/server/runs/threads-v2";

/** A page of a project's threads, most recently active first (`client.threads.query`). */
export const POST = route({
  access: "read",
  body: threadQuery,
  handler: ({ ctx, body }) => queryThreads(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
