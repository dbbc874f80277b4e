import { z } from "zod";
import { route } from "@/server/http/route";
import {
  createFeedbackConfig, deleteFeedbackConfig, feedbackConfigCreate, feedbackConfigUpdate, listFeedbackConfigs, updateFeedbackConfig,
} from "@/server/feedback/configs";
import { uuid } from "@/server/feedback/schema";

export const POST = route({
  access: "write",
  body: feedbackConfigCreate,
  handler: ({ ctx, body }) => createFeedbackConfig(ctx.sql, ctx.workspaceId, body),
});

export const GET = route({
  access: "read",
  query: z.object({
    key: z.union([z.string(), z.array(z.string())]).optional().transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
    name_contains: z.string().optional(),
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  }),
  handler: ({ ctx, query }) => listFeedbackConfigs(ctx.sql, ctx.workspaceId, query),
});

export const PATCH = route({
  access: "write",
  body: feedbackConfigUpdate,
  handler: ({ ctx, body }) => updateFeedbackConfig(ctx.sql, ctx.workspaceId, body),
});

export const DELETE = route({
  access: "write",
  query: z.object({ feedback_key: z.string().min(1).optional(), id: uuid.optional() }),
  handler: async ({ ctx, query }) => {
    await deleteFeedbackConfig(ctx.sql, ctx.workspaceId, query);
    return {};
  },
});
