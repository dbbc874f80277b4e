import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { likeRepo } from "@/server/prompts/repos";
import { likeBody } from "@/server/prompts/schema";

/** Liking is the caller's own mark (like viewing), so any member may like a repo they can read. */
export const POST = route({
  access: "read",
  body: likeBody,
  params: repoParams,
  response: z.object({ likes: z.number() }),
  handler: ({ ctx, body, params }) => likeRepo(ctx.sql, callerOf(ctx), params.owner, params.repo, body.like),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
