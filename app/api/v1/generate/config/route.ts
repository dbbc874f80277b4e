import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { generationConfigUpdate } from "@/server/generate/schema";
import { readGenerationConfig, updateGenerationConfig, wireGenerationConfig } from "@/server/generate/service";

export const GET = route({
  access: "read",
  response: wireGenerationConfig,
  handler: ({ ctx }) => readGenerationConfig(ctx.sql, ctx.workspaceId),
});

export const PUT = route({
  access: "admin",
  body: generationConfigUpdate,
  response: wireGenerationConfig,
  handler: ({ ctx, body }) => updateGenerationConfig(ctx.sql, ctx.workspaceId, body),
});

export const { POST, PATCH, DELETE } = methodNotAllowed("GET", "PUT");
