import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { listTags, tagCommit, wireCommitTag } from "@/server/prompts/tags";
import { tagCreate } from "@/server/prompts/schema";

export const GET = route({
  access: "read",
  params: repoParams,
  response: z.array(wireCommitTag),
  handler: ({ ctx, params }) => listTags(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const POST = route({
  access: "write",
  body: tagCreate,
  params: repoParams,
  response: wireCommitTag,
  handler: ({ ctx, body, params }) => tagCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, body.tag_name, body.commit_id),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
