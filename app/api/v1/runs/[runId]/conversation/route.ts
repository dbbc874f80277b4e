import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { notFound } from "@/server/core/errors";
import { readConversation } from "@/server/runs/conversation";
import { conversation } from "@/server/llm/conversation-types";

/** The run's messages in the canonical conversation model, with the diagnostics found reading them. */
export const GET = route({
  access: "read",
  response: conversation,
  handler: async ({ ctx, params }) => {
    const conversation = await readConversation(ctx.sql, ctx.workspaceId, params.runId);
    if (!conversation) throw notFound(`Run ${params.runId} not found.`);
    return conversation;
  },
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
