import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { readLangfuseTrace } from "@/server/langfuse/read";

/** Langfuse's `getTrace`: the trace with its observations and scores, by the id it was sent with. */
export const GET = route({
  answers: { contentType: "application/json", description: "The trace in Langfuse's shape, with its observations and scores." },
  access: "read",
  basicAuth: true,
  replica: true,
  params: z.object({ traceId: z.string() }),
  handler: ({ ctx, params }) => readLangfuseTrace(ctx.sql, ctx.workspaceId, ctx.identity.publicKey, params.traceId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
