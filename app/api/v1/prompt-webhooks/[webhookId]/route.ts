import { z } from "zod";
import { idParams } from "@/server/core/uuid";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import {
  deletePromptWebhook,
  promptWebhookUpdate,
  readPromptWebhook,
  updatePromptWebhook,
  wirePromptWebhook,
} from "@/server/prompts/webhooks";

const params = idParams("webhookId");

export const GET = route({
  access: "read",
  params,
  response: wirePromptWebhook,
  handler: ({ ctx, params }) => readPromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId),
});

export const PATCH = route({
  access: "write",
  body: promptWebhookUpdate,
  params,
  response: wirePromptWebhook,
  handler: ({ ctx, params, body }) => updatePromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId, body),
});

export const DELETE = route({
  access: "write",
  params,
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await deletePromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
