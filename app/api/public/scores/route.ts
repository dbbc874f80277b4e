import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { listLangfuseScores, scoresQuery } from "@/server/langfuse/read";

/** Langfuse's score list (`page`, `limit`, `traceId`, `observationId`, `name`), newest first. */
export const GET = route({
  answers: {
    contentType: "application/json",
    description: 'A page of scores in Langfuse\'s shape: `{"data": […], "meta": {page, limit, totalItems, totalPages}}`.',
  },
  access: "read",
  basicAuth: true,
  replica: true,
  query: scoresQuery,
  handler: ({ ctx, query }) => listLangfuseScores(ctx.sql, ctx.workspaceId, ctx.identity.publicKey, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
