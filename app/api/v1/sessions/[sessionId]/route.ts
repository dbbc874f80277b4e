import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sessionReadQuery, sessionUpdate } from "@/server/sessions/schema";
import { deleteSessions, readSession, updateSession } from "@/server/sessions/service";

type Params = { sessionId: string };

export const GET = route<"read", undefined, typeof sessionReadQuery, Params>({
  access: "read",
  query: sessionReadQuery,
  handler: ({ ctx, query, params }) => readSession(ctx.sql, ctx.workspaceId, params.sessionId, query.include_stats),
});

export const PATCH = route<"write", typeof sessionUpdate, undefined, Params>({
  access: "write",
  body: sessionUpdate,
  handler: ({ ctx, body, params }) => updateSession(ctx.sql, ctx.workspaceId, params.sessionId, body),
});

export const DELETE = route<"write", undefined, undefined, Params>({
  access: "write",
  handler: ({ ctx, params }) => deleteSessions(ctx.sql, ctx.workspaceId, [params.sessionId]),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
