import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { pullCommit, wireCommit } from "@/server/prompts/commits";
import { commitReadQuery } from "@/server/prompts/schema";

/** One commit by "latest", a tag name or a hash (prefix). */
export const GET = route({
  access: "read",
  query: commitReadQuery,
  params: repoParams.extend({ commit: z.string() }),
  response: wireCommit,
  handler: ({ ctx, query, params }) => pullCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, params.commit, query.is_view ?? false),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
