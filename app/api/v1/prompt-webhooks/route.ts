import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { createPromptWebhook, listPromptWebhooks, promptWebhookCreate, wirePromptWebhook } from "@/server/prompts/webhooks";

export const GET = route({
  access: "read",
  response: z.array(wirePromptWebhook),
  handler: ({ ctx }) => listPromptWebhooks(ctx.sql, ctx.workspaceId),
});

/** A URL told of every commit (and, when asked, each new or moved tag) of the workspace's prompts. */
export const POST = route({
  access: "write",
  body: promptWebhookCreate,
  response: wirePromptWebhook,
  handler: ({ ctx, body }) => createPromptWebhook(ctx.sql, ctx.workspaceId, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
