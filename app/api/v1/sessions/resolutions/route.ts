import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { resolveQuery, resolveSession } from "@/server/sessions/v2";

/** The project an address (an experiment, the evaluators) names (`client.sessions.resolve`). */
export const GET = route({
  access: "read",
  query: resolveQuery,
  response: z.object({ session_id: z.string() }),
  handler: ({ ctx, query }) => resolveSession(ctx.sql, ctx.workspaceId, query),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
