import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { feedbackCreate, feedbackListQuery } from "@/server/feedback/schema";
import { createFeedback, listFeedback } from "@/server/feedback/service";
import { wireFeedback } from "@/server/feedback/wire";
import { z } from "zod";

export const POST = route({
  access: "feedback",
  body: feedbackCreate,
  response: wireFeedback,
  handler: ({ ctx, body }) => createFeedback(ctx.sql, ctx.workspaceId, body),
});

export const GET = route({
  access: "read",
  query: feedbackListQuery,
  response: z.array(wireFeedback),
  handler: ({ ctx, query }) => listFeedback(ctx.sql, ctx.workspaceId, query),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
