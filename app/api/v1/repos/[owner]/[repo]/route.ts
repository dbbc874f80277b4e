import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";
import { callerOf, repoParams, wireRepo } from "@/server/prompts/access";
import { deleteRepo, getRepo, updateRepo } from "@/server/prompts/repos";
import { repoUpdate } from "@/server/prompts/schema";

const oneRepo = z.object({ repo: wireRepo });

export const GET = route({
  access: "read",
  params: repoParams,
  response: oneRepo,
  handler: ({ ctx, params }) => getRepo(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const PATCH = route({
  access: "write",
  body: repoUpdate,
  params: repoParams,
  response: oneRepo,
  handler: ({ ctx, body, params }) => updateRepo(ctx.sql, callerOf(ctx), params.owner, params.repo, body),
});

export const DELETE = route({
  answers: DELETED,
  access: "write",
  params: repoParams,
  handler: ({ ctx, params }) => deleteRepo(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
