import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { likeRepo } from "@/server/prompts/repos";
import { likeBody } from "@/server/prompts/schema";

type Params = { owner: string; repo: string };

/** Liking is the caller's own mark (like viewing), so any member may like a repo they can read. */
export const POST = route<"read", typeof likeBody, undefined, Params>({
  access: "read",
  body: likeBody,
  handler: ({ ctx, body, params }) => likeRepo(ctx.sql, callerOf(ctx), params.owner, params.repo, body.like),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
