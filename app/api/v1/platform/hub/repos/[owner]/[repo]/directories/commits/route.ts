import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf, repoParams } from "@/server/prompts/access";
import { pushDirectory, wireDirectoryCommit } from "@/server/prompts/directories";
import { directoryCommitCreate } from "@/server/prompts/schema";

export const POST = route({
  access: "write",
  body: directoryCommitCreate,
  params: repoParams,
  response: wireDirectoryCommit,
  handler: ({ ctx, body, params }) => pushDirectory(ctx.sql, callerOf(ctx), params.owner, params.repo, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
