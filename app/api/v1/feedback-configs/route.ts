import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import {
  createFeedbackConfig,
  deleteFeedbackConfig,
  feedbackConfigCreate,
  feedbackConfigDeleteQuery,
  feedbackConfigListQuery,
  feedbackConfigUpdate,
  listFeedbackConfigs,
  updateFeedbackConfig,
  wireFeedbackConfig,
} from "@/server/feedback/configs";

export const POST = route({
  access: "write",
  body: feedbackConfigCreate,
  response: wireFeedbackConfig,
  handler: ({ ctx, body }) => createFeedbackConfig(ctx.sql, ctx.workspaceId, body),
});

export const GET = route({
  access: "read",
  query: feedbackConfigListQuery,
  response: z.array(wireFeedbackConfig),
  handler: ({ ctx, query }) => listFeedbackConfigs(ctx.sql, ctx.workspaceId, query),
});

export const PATCH = route({
  access: "write",
  body: feedbackConfigUpdate,
  response: wireFeedbackConfig,
  handler: ({ ctx, body }) => updateFeedbackConfig(ctx.sql, ctx.workspaceId, body),
});

export const DELETE = route({
  access: "write",
  query: feedbackConfigDeleteQuery,
  response: z.object({}),
  handler: async ({ ctx, query }) => {
    await deleteFeedbackConfig(ctx.sql, ctx.workspaceId, query);
    return {};
  },
});

export const { PUT } = methodNotAllowed("GET", "POST", "PATCH", "DELETE");
