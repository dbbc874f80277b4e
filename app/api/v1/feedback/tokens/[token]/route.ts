import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { submitWithToken, tokenFeedback, wireTokenFeedback } from "@/server/feedback/tokens";

/** A link's query string carries text only: a JSON-looking correction or value is read as JSON. */
const jsonish = z
  .string()
  .optional()
  .transform((v) => {
    if (v === undefined) return undefined;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  });

/** Whoever holds the link may leave feedback on its run: no API key, until the link expires. */
export const GET = route({
  access: "public",
  query: z.object({
    score: z.coerce.number().optional(),
    value: jsonish,
    comment: z.string().max(10_000).optional(),
    correction: jsonish,
  }),
  response: wireTokenFeedback,
  handler: ({ ctx, params, query }) => submitWithToken(ctx.sql, params.token, query),
});

export const POST = route({
  access: "public",
  body: tokenFeedback,
  response: wireTokenFeedback,
  handler: ({ ctx, params, body }) => submitWithToken(ctx.sql, params.token, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
