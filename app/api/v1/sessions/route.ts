import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sessionCreate, sessionDeleteQuery, sessionListQuery, upsertQuery } from "@/server/sessions/schema";
import { createSession, deleteSessions, listSessions } from "@/server/sessions/service";

export const GET = route({
  access: "read",
  query: sessionListQuery,
  handler: ({ ctx, query }) => listSessions(ctx.sql, ctx.workspaceId, query),
});

export const POST = route({
  access: "write",
  body: sessionCreate,
  query: upsertQuery,
  handler: ({ ctx, body, query }) => createSession(ctx.sql, ctx.workspaceId, body, query.upsert),
});

export const DELETE = route({
  access: "write",
  query: sessionDeleteQuery,
  handler: ({ ctx, query }) => deleteSessions(ctx.sql, ctx.workspaceId, query.session_ids ?? []),
});

export const { PUT, PATCH } = methodNotAllowed("GET", "POST", "DELETE");
