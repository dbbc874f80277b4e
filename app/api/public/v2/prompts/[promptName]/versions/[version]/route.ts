import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { labelLangfusePrompt, promptLabelsUpdate } from "@/server/langfuse/prompts";

/** Langfuse's `updatePrompt`: puts `newLabels` on one version (moving them from the others). */
export const PATCH = route({
  access: "write",
  basicAuth: true,
  params: z.object({ promptName: z.string(), version: z.coerce.number().int().min(1) }),
  body: promptLabelsUpdate,
  answers: { contentType: "application/json", description: "The prompt version with its new labels, in Langfuse's shape." },
  handler: ({ ctx, params, body }) => labelLangfusePrompt(ctx.sql, callerOf(ctx), params.promptName, params.version, body.newLabels),
});

export const { GET, POST, PUT, DELETE } = methodNotAllowed("PATCH");
