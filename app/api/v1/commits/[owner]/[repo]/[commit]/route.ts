import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { pullCommit } from "@/server/prompts/commits";
import { commitReadQuery } from "@/server/prompts/schema";

type Params = { owner: string; repo: string; commit: string };

/** One commit by "latest", a tag name or a hash (prefix). */
export const GET = route<"read", undefined, typeof commitReadQuery, Params>({
  access: "read",
  query: commitReadQuery,
  handler: ({ ctx, query, params }) => pullCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, params.commit, query.is_view ?? false),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
