import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { createCommit, listCommits } from "@/server/prompts/commits";
import { commitCreate, commitListQuery } from "@/server/prompts/schema";

type Params = { owner: string; repo: string };

export const GET = route<"read", undefined, typeof commitListQuery, Params>({
  access: "read",
  query: commitListQuery,
  handler: ({ ctx, query, params }) => listCommits(ctx.sql, callerOf(ctx), params.owner, params.repo, query),
});

export const POST = route<"write", typeof commitCreate, undefined, Params>({
  access: "write",
  body: commitCreate,
  handler: ({ ctx, body, params }) => createCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
