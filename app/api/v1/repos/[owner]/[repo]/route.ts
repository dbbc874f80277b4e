import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { deleteRepo, getRepo, updateRepo } from "@/server/prompts/repos";
import { repoUpdate } from "@/server/prompts/schema";

type Params = { owner: string; repo: string };

export const GET = route<"read", undefined, undefined, Params>({
  access: "read",
  handler: ({ ctx, params }) => getRepo(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const PATCH = route<"write", typeof repoUpdate, undefined, Params>({
  access: "write",
  body: repoUpdate,
  handler: ({ ctx, body, params }) => updateRepo(ctx.sql, callerOf(ctx), params.owner, params.repo, body),
});

export const DELETE = route<"write", undefined, undefined, Params>({
  access: "write",
  handler: ({ ctx, params }) => deleteRepo(ctx.sql, callerOf(ctx), params.owner, params.repo),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
