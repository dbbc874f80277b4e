import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { feedbackUpdate } from "@/server/feedback/schema";
import { readFeedback } from "@/server/feedback/service";
import { deleteFeedbackAs, patchFeedbackAs } from "@/server/review/feedback";
import { wireFeedback } from "@/server/feedback/wire";

export const GET = route({
  access: "read",
  response: wireFeedback,
  handler: ({ ctx, params }) => readFeedback(ctx.sql, ctx.workspaceId, params.feedbackId),
});

export const PATCH = route({
  access: "feedback",
  body: feedbackUpdate,
  response: wireFeedback,
  handler: ({ ctx, body, params }) => patchFeedbackAs(ctx.sql, ctx.workspaceId, ctx.identity, params.feedbackId, body),
});

export const DELETE = route({
  access: "feedback",
  response: z.object({}),
  handler: async ({ ctx, params }) => {
    await deleteFeedbackAs(ctx.sql, ctx.workspaceId, ctx.identity, params.feedbackId);
    return {};
  },
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
