import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { createCommit, listCommits, wireCommit } from "@/server/prompts/commits";
import { commitCreate, commitListQuery, newCommitFromWire } from "@/server/prompts/schema";

export const GET = route({
  access: "read",
  query: commitListQuery,
  params: repoParams,
  response: z.object({ commits: z.array(wireCommit), total: z.number() }),
  handler: ({ ctx, query, params }) => listCommits(ctx.sql, callerOf(ctx), params.owner, params.repo, query),
});

export const POST = route({
  access: "write",
  body: commitCreate,
  params: repoParams,
  response: z.object({ commit: wireCommit }),
  handler: ({ ctx, body, params }) => createCommit(ctx.sql, callerOf(ctx), params.owner, params.repo, newCommitFromWire(body)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
