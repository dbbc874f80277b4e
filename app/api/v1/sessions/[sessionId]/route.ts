import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import {
  sessionReadQuery,
  sessionUpdate,
  wireDeleted,
  wireProjectWithStats,
  type Deleted,
  type ProjectWithStats,
} from "@/server/sessions/schema";
import { deleteSessions, readSession, updateSession } from "@/server/sessions/service";

type Params = { sessionId: string };

export const GET = route<"read", undefined, typeof sessionReadQuery, Params, ProjectWithStats>({
  access: "read",
  query: sessionReadQuery,
  response: wireProjectWithStats,
  handler: ({ ctx, query, params }) => readSession(ctx.sql, ctx.workspaceId, params.sessionId, query.include_stats),
});

export const PATCH = route<"write", typeof sessionUpdate, undefined, Params, ProjectWithStats>({
  access: "write",
  body: sessionUpdate,
  response: wireProjectWithStats,
  handler: ({ ctx, body, params }) => updateSession(ctx.sql, ctx.workspaceId, params.sessionId, body),
});

export const DELETE = route<"write", undefined, undefined, Params, Deleted>({
  access: "write",
  response: wireDeleted,
  handler: ({ ctx, params }) => deleteSessions(ctx.sql, ctx.workspaceId, [params.sessionId]),
});

export const { POST, PUT } = methodNotAllowed("GET", "PATCH", "DELETE");
