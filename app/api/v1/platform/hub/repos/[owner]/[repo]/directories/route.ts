import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { deleteDirectory, pullDirectory, wireDirectory } from "@/server/prompts/directories";
import { directoryReadQuery } from "@/server/prompts/schema";

export const GET = route({
  access: "read",
  params: repoParams,
  query: directoryReadQuery,
  response: wireDirectory,
  handler: ({ ctx, params, query }) => pullDirectory(ctx.sql, callerOf(ctx), params.owner, params.repo, query),
});

export const DELETE = route({
  answers: DELETED,
  access: "write",
  params: repoParams,
  handler: ({ ctx, params }) => deleteDirectory(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const { POST, PUT, PATCH } = methodNotAllowed("GET", "DELETE");
