import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { uuid } from "@/server/core/uuid";
import { createFeedbackToken, listFeedbackTokens, tokenCreate, wireFeedbackToken } from "@/server/feedback/tokens";

/** JS sends one token request; Python's create_presigned_feedback_tokens sends a list. */
export const POST = route({
  access: "write",
  body: z.union([tokenCreate, z.array(tokenCreate).min(1).max(100)]),
  response: z.union([wireFeedbackToken, z.array(wireFeedbackToken)]),
  handler: async ({ ctx, body }) => {
    if (!Array.isArray(body)) return createFeedbackToken(ctx.sql, ctx.workspaceId, body);
    const made = [];
    for (const one of body) made.push(await createFeedbackToken(ctx.sql, ctx.workspaceId, one));
    return made;
  },
});

export const GET = route({
  access: "read",
  query: z.object({
    run_id: uuid,
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  }),
  response: z.array(wireFeedbackToken),
  handler: ({ ctx, query }) => listFeedbackTokens(ctx.sql, ctx.workspaceId, query.run_id, query.offset, query.limit),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
