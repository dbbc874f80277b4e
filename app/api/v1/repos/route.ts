import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, wireRepo } from "@/server/prompts/access";
import { createRepo, listRepos } from "@/server/prompts/repos";
import { newRepoFromWire, repoCreate, repoFilterFromWire, repoListQuery } from "@/server/prompts/schema";

export const GET = route({
  access: "read",
  query: repoListQuery,
  response: z.object({ repos: z.array(wireRepo), total: z.number() }),
  handler: ({ ctx, query }) => listRepos(ctx.sql, callerOf(ctx), repoFilterFromWire(query)),
});

export const POST = route({
  access: "write",
  body: repoCreate,
  response: z.object({ repo: wireRepo }),
  handler: ({ ctx, body }) => createRepo(ctx.sql, callerOf(ctx), newRepoFromWire(body)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
