import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { listTags, tagCommit } from "@/server/prompts/commits";
import { tagCreate } from "@/server/prompts/schema";

type Params = { owner: string; repo: string };

export const GET = route<"read", undefined, undefined, Params>({
  access: "read",
  handler: ({ ctx, params }) => listTags(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const POST = route<"write", typeof tagCreate, undefined, Params>({
  access: "write",
  body: tagCreate,
  handler: ({ ctx, body, params }) => tagCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, body.tag_name, body.commit_id),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
