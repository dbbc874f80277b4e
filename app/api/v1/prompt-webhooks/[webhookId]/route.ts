import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { deletePromptWebhook, promptWebhookUpdate, readPromptWebhook, updatePromptWebhook } from "@/server/prompts/webhooks";

export const GET = route({
  access: "read",
  handler: ({ ctx, params }) => readPromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId),
});

export const PATCH = route({
  access: "write",
  body: promptWebhookUpdate,
  handler: ({ ctx, params, body }) => updatePromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId, body),
});

export const DELETE = route({
  access: "write",
  handler: async ({ ctx, params }) => {
    await deletePromptWebhook(ctx.sql, ctx.workspaceId, params.webhookId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
