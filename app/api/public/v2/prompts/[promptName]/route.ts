import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { getLangfusePrompt, promptQuery } from "@/server/langfuse/prompts";

/** Langfuse's `getPrompt`: one version by `version` or `label` (`production` by default, `latest` the newest). */
export const GET = route({
  access: "read",
  basicAuth: true,
  params: z.object({ promptName: z.string() }),
  query: promptQuery,
  answers: {
    contentType: "application/json",
    description: "The prompt version in Langfuse's shape (name, version, type, prompt, config, labels, tags).",
  },
  handler: ({ ctx, params, query }) => getLangfusePrompt(ctx.sql, callerOf(ctx), params.promptName, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
